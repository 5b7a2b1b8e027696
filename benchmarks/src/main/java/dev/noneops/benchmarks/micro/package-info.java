/**
 * JMH micro-benchmarks of the hot paths an agent runs on every operation: naming a version,
 * parsing and validating the configuration, parsing mountinfo, scanning {@code /proc}.
 */
package dev.noneops.benchmarks.micro;
