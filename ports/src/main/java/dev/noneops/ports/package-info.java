/**
 * The ports through which noneops' core reaches the host: files, systemd, processes, cgroups,
 * mounts, network links, kernel modules and sysctls, commands, downloads, health probes, host
 * facts, time, event listeners and notifications to the service manager, and the node's
 * {@code Machine} object in the cluster.
 *
 * <p>Each port is an interface with value types as records. Core depends on nothing else to
 * touch the outside world; the adapters implement these ports over the real kernel and D-Bus,
 * and the testkit's {@code SimulatedHost} implements them in memory. One contract suite per
 * port proves both behave alike.
 *
 * <p><b>Failures.</b> One contract holds for every port but {@code Systemd}:
 *
 * <ul>
 *   <li>a failure of the host is a checked {@link java.io.IOException}: a {@link HostIOException}
 *       carrying the {@link Errno}, the operation and what it was applied to (and, where the host
 *       said more, its words), or for a download a {@code DownloadException}, which is an
 *       {@code IOException} too; callers react to the errno, never to a message; the cluster's
 *       API server has no errno, so a refusal of the {@code MachineResource} port is a {@code
 *       MachineResourceException}, an {@code IOException} whose {@code Kind} callers react to;
 *   <li>an argument the port cannot take (a relative path, a malformed interface or module name)
 *       is an {@link IllegalArgumentException}, raised before the host is asked;
 *   <li>an answer is not an error: a missing file, link or sysctl is an empty {@code Optional},
 *       a program that runs and fails is a {@code CommandResult} with its exit code (a program
 *       that cannot be started is a {@code HostIOException}, ENOENT or EACCES), a probe that gets
 *       no answer returns false ({@code HealthProbes} never throw).
 * </ul>
 *
 * <p>{@code Systemd} differs on purpose: its failures are D-Bus errors, not errnos, and are
 * unchecked {@code SystemdException}s with a {@code Kind} (no such unit, access denied, bus
 * unreachable, other) that callers branch on the same way; an unknown unit is an answer
 * ({@code LoadState.NOT_FOUND}) where the call is a question ({@code status}).
 */
package dev.noneops.ports;
