/** memplan baselines: see docs in the README's module map. */
package dev.memplan.baselines;
