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
import java.util.function.Supplier;

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

  /** The space a fresh simulated host has left on every file system: 100 GiB. */
  public static final long DEFAULT_USABLE_BYTES = 100L << 30;

  private final PortGate gate;
  private final SimFileSystem fs;
  private HostInfo info = DEFAULT;
  private boolean privileged = true;
  private List<String> swaps = List.of();
  private long usableBytes = DEFAULT_USABLE_BYTES;

  private final Supplier<String> bootId;

  /** @param bootId the current boot's id (it changes with every simulated reboot) */
  public SimHostFacts(PortGate gate, SimFileSystem fs, Supplier<String> bootId) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.fs = Objects.requireNonNull(fs, "fs");
    this.bootId = Objects.requireNonNull(bootId, "bootId");
  }

  public void set(HostInfo info) {
    synchronized (gate.monitor()) {
      this.info = Objects.requireNonNull(info, "info");
    }
  }

  /** Makes this process run as root ({@code true}, the default) or as another user. */
  public void privileged(boolean root) {
    synchronized (gate.monitor()) {
      this.privileged = root;
    }
  }

  /** Whether this process runs as root, read without a port call (for the other simulated ports). */
  public boolean runsAsRoot() {
    synchronized (gate.monitor()) {
      return privileged;
    }
  }

  /** The swap areas in use; none by default. */
  public void swaps(List<String> areas) {
    synchronized (gate.monitor()) {
      this.swaps = List.copyOf(areas);
    }
  }

  /** The space left on every file system. */
  public void usableBytes(long bytes) {
    synchronized (gate.monitor()) {
      this.usableBytes = bytes;
    }
  }

  @Override
  public boolean privileged() throws IOException {
    return gate.call("facts", "privileged", false, List.of(), () -> privileged);
  }

  @Override
  public List<String> swaps() throws IOException {
    return gate.call("facts", "swaps", false, List.of(), () -> swaps);
  }

  @Override
  public long usableBytes(Path path) throws IOException {
    Objects.requireNonNull(path, "path");
    return gate.call("facts", "usableBytes", false, PortGate.args(path), () -> usableBytes);
  }

  @Override
  public String bootId() throws IOException {
    return gate.call("facts", "bootId", false, List.of(), bootId::get);
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
