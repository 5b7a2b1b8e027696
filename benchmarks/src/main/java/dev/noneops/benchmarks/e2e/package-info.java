/**
 * End-to-end drivers: each measures one lifecycle figure of noneops and the operators' script
 * baseline for it, interleaved in the same run, and writes a Markdown section for BENCHMARKS.md.
 */
package dev.noneops.benchmarks.e2e;
