package dev.noneops.core.node;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of every wait a node does.
 *
 * @param unitJob how long a start, stop or restart job may take
 * @param kubeletReady how long kubelet may take to be active and answer its healthz
 * @param localDnsReady how long LocalDNS may take to answer after a (re)start
 * @param pollInterval how often a readiness probe (kubelet's healthz, a LocalDNS query, a pod
 *     cgroup's process list) is repeated while waiting; the probes are local and cheap, so a short
 *     interval sees readiness early without loading the host (kubelet's healthz is probed more
 *     often still during the first second after kubelet is active, at most every 5 ms)
 * @param probe how long one health probe may take
 * @param command how long a host command of the stack's own ({@code nvidia-ctk}) may take
 * @param imageImport how long importing one image archive may take
 */
public record TimeoutOptions(
    Duration unitJob,
    Duration kubeletReady,
    Duration localDnsReady,
    Duration pollInterval,
    Duration probe,
    Duration command,
    Duration imageImport) {

  public static final TimeoutOptions DEFAULTS = new TimeoutOptions(
      Duration.ofSeconds(90),
      Duration.ofSeconds(120),
      Duration.ofSeconds(30),
      Duration.ofMillis(20),
      Duration.ofSeconds(2),
      Duration.ofSeconds(60),
      Duration.ofMinutes(10));

  public TimeoutOptions {
    for (Duration d : new Duration[] {
      unitJob, kubeletReady, localDnsReady, pollInterval, probe, command, imageImport
    }) {
      Objects.requireNonNull(d, "timeout");
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("timeouts must be positive: " + d);
      }
    }
  }
}
