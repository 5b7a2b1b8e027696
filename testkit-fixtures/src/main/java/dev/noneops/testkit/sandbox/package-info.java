/**
 * A real systemd for system tests on machines whose PID 1 is not systemd: {@link
 * dev.noneops.testkit.sandbox.SystemdSandbox} boots one in private namespaces over an overlay of
 * the host root (DESIGN section 11) and always stops it by its pid.
 */
package dev.noneops.testkit.sandbox;
