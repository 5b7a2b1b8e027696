package dev.noneops.hostfs;

import dev.noneops.hostfs.commands.ProcessCommandRunner;
import dev.noneops.hostfs.download.HttpArtifactDownloader;
import dev.noneops.hostfs.files.PosixHostFiles;
import dev.noneops.hostfs.health.NetworkHealthProbes;
import dev.noneops.hostfs.host.LinuxHostFacts;
import dev.noneops.hostfs.kernel.CommandKernelTuning;
import dev.noneops.hostfs.mounts.MountIdSource;
import dev.noneops.hostfs.mounts.MountLookup;
import dev.noneops.hostfs.mounts.ProcMountTable;
import dev.noneops.hostfs.mounts.StatxMountIds;
import dev.noneops.hostfs.nativeio.Syscalls;
import dev.noneops.hostfs.nativeio.Umount2;
import dev.noneops.hostfs.network.IpHostNetwork;
import dev.noneops.hostfs.process.NoCgroupHierarchy;
import dev.noneops.hostfs.process.ProcProcessTable;
import dev.noneops.hostfs.process.UnifiedCgroups;
import dev.noneops.hostfs.service.NotifySocketServiceNotifier;
import dev.noneops.hostfs.time.SystemHostClock;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.health.HealthProbes;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.process.Cgroups;
import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import dev.noneops.ports.service.ServiceNotifier;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds every host port except {@link Systemd} over the real Linux kernel (network links and
 * kernel tuning over {@code ip}, {@code modprobe} and {@code sysctl} run as commands). The proc root, the
 * cgroup v2 root, the mountinfo file and the host root that facts are read from can be moved, so
 * tests run against temporary trees and agents against a chroot. A moved proc root without a
 * cgroup root means no cgroup hierarchy at all ({@link NoCgroupHierarchy}), never the running
 * machine's {@code /sys/fs/cgroup}.
 *
 * <p>The first operation that needs the C library (a mode or owner change, a lock, a signal, an
 * unmount, a mount id from {@code statx}, ...) fails with an {@link IllegalStateException} when jnr-posix
 * cannot call it natively: a silently emulated POSIX would lack {@code kill} and exact errors.
 *
 * <p>The adapters that are costly to start and that a short command may never need (jnr-posix's
 * binding of the C library, the jnr-ffi bindings of {@code statx} and {@code umount2}, the HTTP
 * client of downloads and probes, the process, cgroup and command adapters) are created on first
 * use, once, thread-safely. A command that only reads files (existence, content, symlink targets,
 * directory listings) loads no native binding at all, nor one that reads their metadata on a host
 * whose mount ids come from a mount table ({@link Builder#mountInfo}).
 */
public final class RealHost {

  private static final Path DEFAULT_PROC = Path.of("/proc");
  private static final Path DEFAULT_CGROUP_ROOT = Path.of("/sys/fs/cgroup");
  /** How long one {@code ip}, {@code modprobe} or {@code sysctl} of the network and kernel ports may take. */
  public static final Duration KERNEL_COMMAND_TIMEOUT = Duration.ofSeconds(60);

  private final HostFiles files;
  private final ProcessTable processes;
  private final Cgroups cgroups;
  private final MountTable mounts;
  private final CommandRunner commands;
  private final ArtifactDownloader downloads;
  private final HealthProbes probes;
  private final HostFacts facts;
  private final HostClock clock;
  private final HostNetwork network;
  private final KernelTuning kernel;
  private final ServiceNotifier notifier;

  private RealHost(Builder b) {
    Path procRoot = b.procRoot;
    Optional<Path> cgroupRoot = b.cgroupRoot();
    Path mountInfo = b.mountInfo != null ? b.mountInfo : procRoot.resolve("self/mountinfo");
    MountLookup lookup = new MountLookup(mountInfo);
    // The kernel's own answer (statx) is exact and costs one system call; a mount table that was
    // moved elsewhere (a test's, a chroot's) is honoured by reading it instead.
    boolean ownMountTable = b.mountInfo == null && procRoot.equals(DEFAULT_PROC);
    Lazy<MountIdSource> mountIds =
        new Lazy<>(() -> ownMountTable ? StatxMountIds.load(lookup) : lookup);
    HttpArtifactDownloader.Settings downloadSettings = b.downloadSettings;
    this.clock = b.clock;
    // Lambdas rather than method references: Syscalls is not even linked until one runs.
    this.files =
        new PosixHostFiles(() -> Syscalls.load(), path -> mountIds.get().mountIdOf(path));
    this.processes =
        new LazyProcessTable(new Lazy<>(() -> new ProcProcessTable(procRoot, Syscalls.load())));
    this.cgroups = cgroupRoot.isEmpty()
        ? new NoCgroupHierarchy()
        : new LazyCgroups(new Lazy<>(() -> new UnifiedCgroups(
            cgroupRoot.get(), procRoot.resolve("sys/kernel/osrelease"), Syscalls.load())));
    this.mounts =
        new LazyMountTable(new Lazy<>(() -> new ProcMountTable(mountInfo, Umount2.load())));
    this.commands = new LazyCommandRunner(new Lazy<>(ProcessCommandRunner::new));
    this.network = new IpHostNetwork(commands, KERNEL_COMMAND_TIMEOUT);
    this.kernel = new CommandKernelTuning(commands, KERNEL_COMMAND_TIMEOUT);
    this.downloads = new LazyArtifactDownloader(
        new Lazy<>(() -> HttpArtifactDownloader.create(downloadSettings, clock)));
    this.probes = new LazyHealthProbes(new Lazy<>(NetworkHealthProbes::create));
    this.facts = new LinuxHostFacts(procRoot, b.hostRoot, System.getProperty("os.arch"));
    this.notifier = NotifySocketServiceNotifier.fromEnvironment(b.environment);
  }

  /** The real host at its usual places: {@code /proc}, {@code /sys/fs/cgroup}, {@code /}. */
  public static RealHost create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every port, with the given systemd adapter. */
  public HostPorts ports(Systemd systemd) {
    return new HostPorts(
        files, systemd, commands, processes, cgroups, mounts, downloads, probes, facts, clock,
        network, kernel, notifier);
  }

  /**
   * Notifications to the service manager over {@code $NOTIFY_SOCKET} of the environment the host
   * was built with; they do nothing when it is not set.
   */
  public ServiceNotifier notifier() {
    return notifier;
  }

  /** The network links, over {@code ip -j} run by {@link #commands()}. */
  public HostNetwork network() {
    return network;
  }

  /** Kernel modules and sysctls, over {@code modprobe} and {@code sysctl} run by {@link #commands()}. */
  public KernelTuning kernel() {
    return kernel;
  }

  public HostFiles files() {
    return files;
  }

  public ProcessTable processes() {
    return processes;
  }

  public Cgroups cgroups() {
    return cgroups;
  }

  public MountTable mounts() {
    return mounts;
  }

  public CommandRunner commands() {
    return commands;
  }

  public ArtifactDownloader downloads() {
    return downloads;
  }

  public HealthProbes probes() {
    return probes;
  }

  public HostFacts facts() {
    return facts;
  }

  public HostClock clock() {
    return clock;
  }

  /** Where the real host's parts are; every setting has the production default. */
  public static final class Builder {
    private Path procRoot = DEFAULT_PROC;
    private Path cgroupRoot;
    private Path mountInfo;
    private Path hostRoot = Path.of("/");
    private HttpArtifactDownloader.Settings downloadSettings =
        HttpArtifactDownloader.Settings.DEFAULT;
    private HostClock clock = new SystemHostClock();
    private Map<String, String> environment = System.getenv();

    private Builder() {}

    /**
     * The process environment the service manager's variables ({@code NOTIFY_SOCKET},
     * {@code WATCHDOG_USEC}, {@code WATCHDOG_PID}) are read from, once (default {@code System.getenv()}).
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
      return this;
    }

    /**
     * The proc file system for processes and kernel facts (default {@code /proc}). Moved without a
     * {@link #cgroupRoot} of its own, the host has no cgroup hierarchy.
     */
    public Builder procRoot(Path procRoot) {
      this.procRoot = absolute(procRoot, "procRoot");
      return this;
    }

    /**
     * The cgroup v2 mount. Unset, it is {@code /sys/fs/cgroup} when the proc root is not moved and
     * none otherwise: the cgroups port is then an empty, unavailable hierarchy.
     */
    public Builder cgroupRoot(Path cgroupRoot) {
      this.cgroupRoot = absolute(cgroupRoot, "cgroupRoot");
      return this;
    }

    /** The mountinfo file (default {@code <procRoot>/self/mountinfo}). */
    public Builder mountInfo(Path mountInfo) {
      this.mountInfo = absolute(mountInfo, "mountInfo");
      return this;
    }

    /** The root holding {@code /dev}, {@code /etc} and {@code /run} for host facts (default {@code /}). */
    public Builder hostRoot(Path hostRoot) {
      this.hostRoot = absolute(hostRoot, "hostRoot");
      return this;
    }

    /** Timeouts and retries of artifact downloads. */
    public Builder downloadSettings(HttpArtifactDownloader.Settings settings) {
      this.downloadSettings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** The clock handed to core and used for download backoff. */
    public Builder clock(HostClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    private Optional<Path> cgroupRoot() {
      if (cgroupRoot != null) {
        return Optional.of(cgroupRoot);
      }
      return procRoot.equals(DEFAULT_PROC) ? Optional.of(DEFAULT_CGROUP_ROOT) : Optional.empty();
    }

    /** The ports; none of them binds the C library before its first use. */
    public RealHost build() {
      return new RealHost(this);
    }

    private static Path absolute(Path path, String what) {
      Objects.requireNonNull(path, what);
      if (!path.isAbsolute()) {
        throw new IllegalArgumentException(what + " must be an absolute path: " + path);
      }
      return path;
    }
  }

  /** A value made by its supplier on the first {@link #get}, once, even under concurrent calls. */
  private static final class Lazy<T> {
    private final Supplier<? extends T> make;
    private volatile T value;

    Lazy(Supplier<? extends T> make) {
      this.make = make;
    }

    T get() {
      T v = value;
      if (v == null) {
        synchronized (this) {
          v = value;
          if (v == null) {
            v = Objects.requireNonNull(make.get(), "lazily created adapter");
            value = v;
          }
        }
      }
      return v;
    }
  }

  private static final class LazyProcessTable implements ProcessTable {
    private final Lazy<ProcessTable> delegate;

    LazyProcessTable(Lazy<ProcessTable> delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<ProcessInfo> list() throws IOException {
      return delegate.get().list();
    }

    @Override
    public List<ProcessInfo> list(Set<ProcessDetail> details) throws IOException {
      return delegate.get().list(details);
    }

    @Override
    public Optional<ProcessInfo> get(long pid) throws IOException {
      return delegate.get().get(pid);
    }

    @Override
    public Optional<ProcessInfo> get(long pid, Set<ProcessDetail> details) throws IOException {
      return delegate.get().get(pid, details);
    }

    @Override
    public ProcessIdentity self() throws IOException {
      return delegate.get().self();
    }

    @Override
    public Optional<ProcessIdentity> identity(long pid) throws IOException {
      return delegate.get().identity(pid);
    }

    @Override
    public boolean signal(long pid, int signal) throws IOException {
      return delegate.get().signal(pid, signal);
    }
  }

  private static final class LazyCgroups implements Cgroups {
    private final Lazy<Cgroups> delegate;

    LazyCgroups(Lazy<Cgroups> delegate) {
      this.delegate = delegate;
    }

    @Override
    public boolean available() {
      return delegate.get().available();
    }

    @Override
    public boolean exists(String cgroup) throws IOException {
      return delegate.get().exists(cgroup);
    }

    @Override
    public List<String> children(String cgroup) throws IOException {
      return delegate.get().children(cgroup);
    }

    @Override
    public List<Long> pids(String cgroup) throws IOException {
      return delegate.get().pids(cgroup);
    }

    @Override
    public boolean supportsKill() throws IOException {
      return delegate.get().supportsKill();
    }

    @Override
    public void kill(String cgroup) throws IOException {
      delegate.get().kill(cgroup);
    }

    @Override
    public void remove(String cgroup) throws IOException {
      delegate.get().remove(cgroup);
    }
  }

  private static final class LazyMountTable implements MountTable {
    private final Lazy<MountTable> delegate;

    LazyMountTable(Lazy<MountTable> delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<MountEntry> mounts() throws IOException {
      return delegate.get().mounts();
    }

    @Override
    public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
      delegate.get().unmount(mountPoint, flags);
    }
  }

  private static final class LazyCommandRunner implements CommandRunner {
    private final Lazy<CommandRunner> delegate;

    LazyCommandRunner(Lazy<CommandRunner> delegate) {
      this.delegate = delegate;
    }

    @Override
    public CommandResult run(Command command) throws IOException {
      return delegate.get().run(command);
    }
  }

  private static final class LazyArtifactDownloader implements ArtifactDownloader {
    private final Lazy<ArtifactDownloader> delegate;

    LazyArtifactDownloader(Lazy<ArtifactDownloader> delegate) {
      this.delegate = delegate;
    }

    @Override
    public DownloadResult download(
        URI url,
        Optional<Sha256> expected,
        Path destination,
        long maxBytes,
        DownloadListener listener)
        throws IOException {
      return delegate.get().download(url, expected, destination, maxBytes, listener);
    }

    @Override
    public byte[] fetch(URI url, long maxBytes) throws IOException {
      return delegate.get().fetch(url, maxBytes);
    }

    @Override
    public int head(URI url, Duration timeout) throws IOException {
      return delegate.get().head(url, timeout);
    }
  }

  private static final class LazyHealthProbes implements HealthProbes {
    private final Lazy<HealthProbes> delegate;

    LazyHealthProbes(Lazy<HealthProbes> delegate) {
      this.delegate = delegate;
    }

    @Override
    public boolean httpOk(URI url, Duration timeout) {
      return delegate.get().httpOk(url, timeout);
    }

    @Override
    public boolean dnsAnswers(String address, int port, String name, Duration timeout) {
      return delegate.get().dnsAnswers(address, port, name, timeout);
    }
  }
}
