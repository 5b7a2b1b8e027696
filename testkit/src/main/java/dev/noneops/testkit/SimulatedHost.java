package dev.noneops.testkit;

import dev.noneops.ports.HostPorts;
import dev.noneops.ports.files.FileType;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.commands.KubeletKernelDefaults;
import dev.noneops.testkit.commands.SimCommandRunner;
import dev.noneops.testkit.commands.SimKernel;
import dev.noneops.testkit.download.SimArtifactDownloader;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.fs.SimHostFiles;
import dev.noneops.testkit.fs.SimMountTable;
import dev.noneops.testkit.gate.CallJournal;
import dev.noneops.testkit.gate.Faults;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.health.SimHealthProbes;
import dev.noneops.testkit.host.SimHostFacts;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimCgroups;
import dev.noneops.testkit.process.SimProcess;
import dev.noneops.testkit.process.SimProcessTable;
import dev.noneops.testkit.process.SimProcesses;
import dev.noneops.testkit.systemd.SimServiceNotifier;
import dev.noneops.testkit.systemd.SimSystemd;
import dev.noneops.testkit.time.VirtualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A whole simulated machine: an in-memory implementation of every port ({@link #ports()}), strict
 * like the real kernel and systemd, with the durability model of the design's section 6, fault
 * injection, crash points and a journal of every port call.
 *
 * <pre>{@code
 * SimulatedHost host = SimulatedHost.create();
 * host.fs().seedFile(Path.of("/etc/default/kubelet"), "KUBELET_EXTRA_ARGS=\n", 0644);
 * Node node = new Node(params, host.ports());
 * host.faults().crashAtCrashPoint(7);
 * assertThrows(SimulatedCrash.class, node::upgrade);
 * host.crash();                       // reboot on what was durable
 * }</pre>
 *
 * <p>The test-facing controls are the components: {@link #fs()} (raw syscalls, durable fixtures,
 * mounts, snapshots), {@link #systemd()} (unit behaviours, history), {@link #processes()},
 * {@link #commands()}, {@link #kernel()}, {@link #artifacts()}, {@link #probes()},
 * {@link #facts()}, {@link #notifier()}, {@link #clock()}, {@link #faults()} and
 * {@link #journal()}. Controls are not
 * journaled; only port calls are (clock reads are not, sleeps are).
 *
 * <p>Where the simulation chooses among what a real kernel may do, it picks the outcome that is
 * harder for recovery code: fsync of a new file also makes its name durable (so a crash inside a
 * durable write can leave the temp file behind); a mode or owner change becomes durable with the
 * next fsync of its directory; a created directory comes back empty when its entries were not
 * synced. A process that does not run as root ({@code facts().privileged(false)}) gets EACCES
 * for a read others' permissions do not allow (see {@link SimHostFiles}). Deliberate
 * simplifications: writes are not checked against permissions (the node writes as root), hard links and timestamps are not modelled, systemd's {@code Restart=} policies
 * and {@code ExecStartPre=} are not run (a dying main process leaves its unit failed), and fixture
 * methods of the components are meant for the test thread while no port call runs.
 */
public final class SimulatedHost {
  /** The default systemd unit directory. */
  public static final Path DEFAULT_SYSTEMD_DIR = Path.of("/etc/systemd/system");
  /** Unit directories searched after the systemd directory. */
  public static final List<Path> VENDOR_UNIT_DIRS =
      List.of(Path.of("/run/systemd/system"), Path.of("/usr/lib/systemd/system"));

  private final PortGate gate = new PortGate();
  private final VirtualClock clock = new VirtualClock(gate);
  private final SimFileSystem fs = new SimFileSystem(gate, () -> {
    Instant now = clock.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  });
  private final SimProcesses processes;
  private final SimSystemd systemd;
  private final SimCommandRunner commands;
  private final SimKernel kernel;
  private final SimArtifactRepository artifacts;
  private final SimHealthProbes probes;
  private final SimHostFacts facts;
  private final SimServiceNotifier notifier;
  private final HostPorts ports;
  private long boot = 1;

  private SimulatedHost(Builder b) {
    processes = new SimProcesses(path -> {
      try {
        return fs.lstat(Path.of(path)).isPresent();
      } catch (IOException e) {
        return false;
      }
    });
    try {
      if (b.skeleton) {
        seedSkeleton(b.systemdDir);
      } else {
        fs.seedDirectory(b.systemdDir, 0755);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the simulated host's file tree", e);
    }
    systemd = new SimSystemd(gate, fs, processes, clock, b.systemdDir, VENDOR_UNIT_DIRS);
    commands = new SimCommandRunner(gate, clock);
    kernel = new SimKernel(fs, gate);
    systemd.setProgramRefusal(new KubeletKernelDefaults(kernel::sysctl)::refusal);
    artifacts = new SimArtifactRepository(gate.monitor());
    probes = new SimHealthProbes(gate, clock, unit -> systemd.peek(unit).isActive());
    facts = new SimHostFacts(gate, fs, this::bootId);
    notifier = new SimServiceNotifier(gate, clock);
    ports = new HostPorts(
        new SimHostFiles(gate, fs, () -> processes.self().pid(), facts::runsAsRoot),
        systemd,
        commands,
        new SimProcessTable(gate, processes),
        new SimCgroups(gate, processes),
        new SimMountTable(gate, fs),
        new SimArtifactDownloader(gate, fs, artifacts, clock),
        probes,
        facts,
        clock,
        kernel.network(),
        kernel.tuning(),
        notifier);
  }

  /** A host with the usual directories, {@code /run} as tmpfs and units in {@code /etc/systemd/system}. */
  public static SimulatedHost create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a new simulated host. */
  public static final class Builder {
    private Path systemdDir = DEFAULT_SYSTEMD_DIR;
    private boolean skeleton = true;

    private Builder() {}

    /** Where units are written and enable links created (the seed's {@code SystemdDir}). */
    public Builder systemdDir(Path dir) {
      Objects.requireNonNull(dir, "dir");
      if (!dir.isAbsolute()) {
        throw new IllegalArgumentException("the systemd directory must be absolute: " + dir);
      }
      this.systemdDir = dir.normalize();
      return this;
    }

    /** Starts from an empty root (plus the systemd directory) instead of the usual directories. */
    public Builder bareRoot() {
      this.skeleton = false;
      return this;
    }

    public SimulatedHost build() {
      return new SimulatedHost(this);
    }
  }

  private void seedSkeleton(Path systemdDir) throws IOException {
    for (String dir : List.of(
        "/etc",
        "/etc/default",
        "/usr/bin",
        "/usr/sbin",
        "/usr/lib/systemd/system",
        "/usr/local/bin",
        "/usr/local/sbin",
        "/var/lib",
        "/var/log",
        "/opt",
        "/root",
        "/run")) {
      fs.seedDirectory(Path.of(dir), 0755);
    }
    fs.seedDirectory(Path.of("/tmp"), 01777);
    fs.seedDirectory(systemdDir, 0755);
    fs.seedSymlink(Path.of("/bin"), "usr/bin");
    fs.seedSymlink(Path.of("/sbin"), "usr/sbin");
    fs.seedNode(Path.of("/dev/null"), FileType.CHAR_DEVICE, 0666, 1, 3);
    fs.mount(Path.of("/run"), SimFileSystem.MountKind.TMPFS, "tmpfs", "tmpfs", false);
    fs.seedDirectory(Path.of("/run/systemd/system"), 0755);
  }

  /** Every port of this host, for core. */
  public HostPorts ports() {
    return ports;
  }

  public SimFileSystem fs() {
    return fs;
  }

  public SimSystemd systemd() {
    return systemd;
  }

  public SimProcesses processes() {
    return processes;
  }

  public SimCommandRunner commands() {
    return commands;
  }

  public SimKernel kernel() {
    return kernel;
  }

  public SimArtifactRepository artifacts() {
    return artifacts;
  }

  public SimHealthProbes probes() {
    return probes;
  }

  public SimHostFacts facts() {
    return facts;
  }

  /** What the process tells its service manager; it runs without one until a test says otherwise. */
  public SimServiceNotifier notifier() {
    return notifier;
  }

  public VirtualClock clock() {
    return clock;
  }

  public CallJournal journal() {
    return gate.journal();
  }

  public Faults faults() {
    return gate.faults();
  }

  /** The lock every port call holds; take it to inspect several components consistently. */
  public Object monitor() {
    return gate.monitor();
  }

  /**
   * Power loss and reboot: what was not durable is gone, tmpfs mounts are empty, mounts not in
   * fstab are gone, every process is dead, every lock released, systemd has forgotten every unit
   * (nothing runs; see {@link SimSystemd#bootEnabledUnits()}), the kernel boots (its state reset,
   * then the modules of {@code modules-load.d} loaded and the {@code sysctl.d} presets applied), an armed
   * crash is disarmed and the boot id changes. Fault rules, scripted behaviours, installed programs
   * and what the service manager received from the notifier stay.
   */
  public void crash() {
    synchronized (gate.monitor()) {
      fs.crash();
      processes.crash();
      systemd.crash();
      kernel.boot();
      gate.faults().disarmCrash();
      gate.reboot();
      boot++;
    }
  }

  /** Whether a crash fired and the host waits for {@link #crash()}. */
  public boolean halted() {
    return gate.halted();
  }

  /**
   * Has the ports called as {@code process} (spawned by the test: an embedding agent, say) until
   * {@link #actAsAgent()}; what the node records as its own process is then that one.
   */
  public void actAs(SimProcess process) {
    synchronized (gate.monitor()) {
      processes.actAs(process);
    }
  }

  /** Has the ports called as the agent's own process again ({@link SimProcesses#AGENT}). */
  public void actAsAgent() {
    synchronized (gate.monitor()) {
      processes.actAsAgent();
    }
  }

  /** Identifies the current boot; changes with every {@link #crash()}. */
  public String bootId() {
    synchronized (gate.monitor()) {
      return "sim-boot-" + boot;
    }
  }

  /**
   * Starts a process (a shim, a foreign daemon, ...) that is not managed by systemd. Like
   * {@code execve}, it needs an existing executable file; its exe is reported with every symlink
   * resolved.
   */
  public SimProcess spawn(ProcessSpec spec) {
    synchronized (gate.monitor()) {
      if (spec.exe().isEmpty()) {
        return processes.spawn(spec);
      }
      Path exe = Path.of(spec.exe().get());
      try {
        var meta = fs.stat(exe);
        if (meta.isEmpty() || !meta.get().isRegularFile() || (meta.get().mode() & 0111) == 0) {
          throw new IllegalArgumentException(
              "cannot execute " + exe + ": no executable file there on the simulated host");
        }
        Path canonical = fs.realPath(exe);
        return processes.spawn(new ProcessSpec(
            Optional.of(canonical.toString()),
            spec.argv(),
            spec.cgroup(),
            spec.extraMappedFiles(),
            spec.ignoredSignals()));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot resolve " + exe, e);
      }
    }
  }

  /** Installs a durable executable (mode 0755) whose content is a short script text. */
  public void installExecutable(Path path, String content) {
    synchronized (gate.monitor()) {
      try {
        fs.seedFile(path, content.getBytes(StandardCharsets.UTF_8), 0755);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot install " + path, e);
      }
    }
  }

  /** A snapshot of the whole file tree. */
  public FileTreeSnapshot snapshot() {
    return snapshot(Path.of("/"));
  }

  /** A snapshot of the tree at and below {@code root}. */
  public FileTreeSnapshot snapshot(Path root) {
    synchronized (gate.monitor()) {
      try {
        return fs.snapshot(root);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot walk " + root, e);
      }
    }
  }

  /** A snapshot of the entries at and below {@code root} whose path (a string) {@code include} accepts. */
  public FileTreeSnapshot snapshot(Path root, Predicate<String> include) {
    synchronized (gate.monitor()) {
      try {
        return fs.snapshot(root, include);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot walk " + root, e);
      }
    }
  }

  /** The paths of every leftover temp file ({@code HostFiles.TEMP_PREFIX}) at or below {@code root}. */
  public List<String> tempFiles(Path root) {
    List<String> out = new ArrayList<>();
    for (FileTreeSnapshot.Entry e : snapshot(root).entries()) {
      String name = e.path().substring(e.path().lastIndexOf('/') + 1);
      if (name.startsWith(HostFiles.TEMP_PREFIX)) {
        out.add(e.path());
      }
    }
    return out;
  }
}
