/**
 * End-to-end drivers: each measures one lifecycle figure of noneops and the operators' script
 * baseline for it, interleaved in the same run, and writes a Markdown section for docs/benchmarks.md.
 */
package dev.noneops.benchmarks.e2e;
