/**
 * The testkit: {@link dev.noneops.testkit.SimulatedHost}, an in-memory implementation of every port
 * with a durability model, fault injection, crash points and a call journal, for scenario, crash
 * and fault suites inside and outside this project.
 */
package dev.noneops.testkit;
