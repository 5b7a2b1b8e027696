/**
 * The ports through which noneops' core reaches the host: files, systemd, processes, cgroups,
 * mounts, commands, downloads, health probes, host facts, time and event listeners.
 *
 * <p>Each port is an interface with value types as records. Core depends on nothing else to
 * touch the outside world; the adapters implement these ports over the real kernel and D-Bus,
 * and the testkit's {@code SimulatedHost} implements them in memory. One contract suite per
 * port proves both behave alike.
 */
package dev.noneops.ports;
