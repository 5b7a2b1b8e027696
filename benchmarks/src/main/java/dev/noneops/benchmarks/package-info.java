/**
 * Measurements of the node lifecycle against the scripts operators use today: JMH
 * micro-benchmarks of the hot paths and end-to-end drivers, each figure next to its baseline
 * measured in the same run. {@code bin/benchmarks} runs them all and writes {@code docs/benchmarks.md}.
 */
package dev.noneops.benchmarks;
