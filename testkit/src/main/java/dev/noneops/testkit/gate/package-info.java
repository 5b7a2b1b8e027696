/**
 * The entrance every simulated port call passes: the call journal, fault rules and crash points,
 * and {@link dev.noneops.testkit.gate.SimulatedCrash}.
 */
package dev.noneops.testkit.gate;
