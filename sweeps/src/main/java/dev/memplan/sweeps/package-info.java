/** memplan sweeps: sweep specs, their cases, the results database and the local engine (issue 15). */
package dev.memplan.sweeps;
