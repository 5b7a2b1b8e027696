/**
 * A small task framework: named tasks, serial and parallel composition, and uniform
 * started/completed/failed logging and events with durations measured on the host clock.
 */
package dev.noneops.core.task;
