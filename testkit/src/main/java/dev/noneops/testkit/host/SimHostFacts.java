package dev.noneops.testkit.host;

import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.ports.host.ResolvConf;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link HostFacts} port with facts a test sets; defaults describe a plain amd64 host. The
 * resolver facts (upstream nameservers, kubelet's resolv.conf) come from the simulated
 * {@code /etc/resolv.conf} and systemd-resolved's upstream list by the real host's rules when a
 * test has written an {@code /etc/resolv.conf}, and are the set ones otherwise.
 */
public final class SimHostFacts implements HostFacts {
  /** The facts a fresh simulated host reports. */
  public static final HostInfo DEFAULT =
      new HostInfo("amd64", "6.1.0-sim", "sim-node", List.<Path>of(), false, List.of("192.0.2.53"));

  private final PortGate gate;
  private final SimFileSystem fs;
  private HostInfo info = DEFAULT;

  public SimHostFacts(PortGate gate, SimFileSystem fs) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.fs = Objects.requireNonNull(fs, "fs");
  }

  public void set(HostInfo info) {
    synchronized (gate.monitor()) {
      this.info = Objects.requireNonNull(info, "info");
    }
  }

  @Override
  public HostInfo read() throws IOException {
    return gate.call("facts", "read", false, List.of(), () -> withResolversOfTheFiles(info));
  }

  private HostInfo withResolversOfTheFiles(HostInfo set) throws IOException {
    Optional<String> own = text(HostInfo.RESOLV_CONF);
    if (own.isEmpty()) {
      return set;
    }
    ResolvConf.Resolvers resolvers =
        ResolvConf.resolvers(own.get(), text(HostInfo.RESOLVED_UPSTREAM_RESOLV_CONF));
    return new HostInfo(
        set.arch(),
        set.kernelRelease(),
        set.hostname(),
        set.gpuDevices(),
        set.kvmPresent(),
        resolvers.upstreams(),
        resolvers.kubeletResolvConf());
  }

  private Optional<String> text(Path file) throws IOException {
    if (fs.stat(file).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new String(fs.read(file), StandardCharsets.UTF_8));
  }
}
