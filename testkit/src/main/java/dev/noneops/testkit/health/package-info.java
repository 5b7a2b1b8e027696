/** Health probes whose answers follow the simulated units or what a test sets. */
package dev.noneops.testkit.health;
