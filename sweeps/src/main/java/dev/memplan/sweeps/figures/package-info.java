/** Figures and tables from sweep results and plans (JFreeChart, JFreeSVG). */
package dev.memplan.sweeps.figures;
