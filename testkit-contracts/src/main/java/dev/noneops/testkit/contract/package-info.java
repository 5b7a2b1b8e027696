/**
 * Abstract port contract suites (JUnit 5): one per port, each written only against the port and
 * abstract fixture methods, so the same behaviour is proven for the {@code SimulatedHost} and for
 * every real adapter. A subclass supplies the port and the fixtures (a scratch directory, a way to
 * mount something, a way to install a unit file, ...) and inherits the tests.
 */
package dev.noneops.testkit.contract;
