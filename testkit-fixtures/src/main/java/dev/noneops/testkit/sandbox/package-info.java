/**
 * A real systemd for system tests on machines whose PID 1 is not systemd: {@link
 * dev.noneops.testkit.sandbox.SystemdSandbox} boots one in private namespaces over an overlay of
 * the host root (docs/guides/tests.md) and always stops it by its pid; over a {@link
 * dev.noneops.testkit.sandbox.SandboxDisk}, a power cut of one sandbox and the boot of the next on
 * the same disk are a power cut and a reboot of one machine.
 */
package dev.noneops.testkit.sandbox;
