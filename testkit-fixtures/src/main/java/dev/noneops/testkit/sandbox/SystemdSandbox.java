package dev.noneops.testkit.sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * A private systemd booted as PID 1 of its own PID, mount, UTS, IPC and cgroup namespaces over a
 * copy-on-write overlay of the host root (docs/guides/tests.md), for tests that need a real systemd
 * on a machine whose PID 1 is not systemd. Nothing the sandbox writes reaches the host's files:
 * the overlay's upper layer is either a tmpfs that exists only in the sandbox's mount namespace
 * ({@link #boot(String)}) or a {@link SandboxDisk} that outlives the sandbox ({@link #boot(String,
 * SandboxDisk, Duration)}), so that {@link #powerCut()} and a new boot on the same disk are a power
 * cut and a reboot of one machine.
 *
 * <ul>
 *   <li>{@link #busAddress()} is the sandbox's system bus, reachable from the host;
 *   <li>{@link #root()} is the sandbox's root directory as seen from the host, to write unit
 *       files and read results;
 *   <li>{@link #exec} runs a command inside (nsenter into its namespaces and root);
 *   <li>{@link #bootJournal()}, {@link #unitTimes} and {@link #jobResults()} tell what this boot
 *       did. Its journal is volatile (in its {@code /run}): the sandbox shares the host kernel's
 *       boot id, so a persistent journal on a disk would file every reboot under one boot.
 * </ul>
 *
 * <p>{@link #close()} stops it by SIGKILL to the namespace's PID 1, addressed by pid (never by
 * name), which ends every process in the namespace; then the sandbox's cgroup subtree and
 * temporary directory are removed. A JVM shutdown hook closes sandboxes left open, and a sandbox
 * dies with the JVM even when the JVM is killed (see {@link BootScript#LAUNCHER}).
 */
public final class SystemdSandbox implements AutoCloseable {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,30}");
  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final Duration DEFAULT_BOOT_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration POLL = Duration.ofMillis(50);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

  private final String name;
  private final Path workDir;
  private final Path bootLog;
  private final SandboxCgroup cgroup;
  private final Process launcher;
  private final long unsharePid;
  private final Optional<SandboxDisk> disk;
  private ProcessHandle init;
  private Duration bootTime = Duration.ZERO;
  private List<String> failedAtBoot = List.of();
  private boolean closed;

  private SystemdSandbox(
      String name,
      Path workDir,
      Path bootLog,
      SandboxCgroup cgroup,
      Process launcher,
      long unsharePid,
      Optional<SandboxDisk> disk) {
    this.name = name;
    this.workDir = workDir;
    this.bootLog = bootLog;
    this.cgroup = cgroup;
    this.launcher = launcher;
    this.unsharePid = unsharePid;
    this.disk = disk;
  }

  /** Boots a sandbox and waits until its systemd reports {@code running} or {@code degraded}. */
  public static SystemdSandbox boot(String name) {
    return boot(name, DEFAULT_BOOT_TIMEOUT);
  }

  /**
   * Boots a sandbox named {@code name} (lower-case letters, digits, dashes; it becomes part of
   * {@code $container} and of the cgroup's name) within {@code timeout}.
   *
   * @throws SandboxBootException when it cannot boot; a half-started sandbox is stopped first
   */
  public static SystemdSandbox boot(String name, Duration timeout) {
    return boot(name, Optional.empty(), SandboxNetwork.HOST, timeout);
  }

  /**
   * Boots a sandbox named {@code name} in {@code network} (its own network namespace, or the
   * host's) and waits until its systemd reports {@code running} or {@code degraded}.
   *
   * @throws SandboxBootException when it cannot boot; a half-started sandbox is stopped first
   */
  public static SystemdSandbox boot(String name, SandboxNetwork network) {
    return boot(
        name, Optional.empty(), Objects.requireNonNull(network, "network"), DEFAULT_BOOT_TIMEOUT);
  }

  /**
   * Boots a sandbox named {@code name} over {@code disk} within {@code timeout}. On a disk an
   * earlier sandbox used (and lost to {@link #powerCut()}), this is a reboot: systemd finds that
   * sandbox's files and starts the units it had enabled, in their dependency order.
   *
   * @throws SandboxBootException when it cannot boot; a half-started sandbox is stopped first
   * @throws IllegalStateException when another sandbox runs on {@code disk} or it is closed
   */
  public static SystemdSandbox boot(String name, SandboxDisk disk, Duration timeout) {
    return boot(name, disk, SandboxNetwork.HOST, timeout);
  }

  /**
   * Boots a sandbox named {@code name} over {@code disk} in {@code network} within {@code
   * timeout}: a reboot of the machine the disk's earlier sandbox was, with a network namespace of
   * its own ({@link SandboxNetwork#OWN}, new at every boot, as a rebooted host's links are) or the
   * host's.
   *
   * @throws SandboxBootException when it cannot boot; a half-started sandbox is stopped first
   * @throws IllegalStateException when another sandbox runs on {@code disk} or it is closed
   */
  public static SystemdSandbox boot(
      String name, SandboxDisk disk, SandboxNetwork network, Duration timeout) {
    return boot(
        name,
        Optional.of(Objects.requireNonNull(disk, "disk")),
        Objects.requireNonNull(network, "network"),
        timeout);
  }

  private static SystemdSandbox boot(
      String name, Optional<SandboxDisk> disk, SandboxNetwork network, Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("sandbox name must match " + NAME + ": '" + name + "'");
    }
    SandboxRequirements.unmetReason().ifPresent(reason -> {
      throw new SandboxBootException(reason);
    });
    long started = System.nanoTime();
    disk.ifPresent(d -> d.claim(name));
    SystemdSandbox sandbox;
    try {
      sandbox = start(name, disk, network);
    } catch (RuntimeException failure) {
      disk.ifPresent(SandboxDisk::release);
      throw failure;
    }
    try {
      sandbox.awaitRunning(started, timeout);
      return sandbox;
    } catch (RuntimeException failure) {
      String diagnostics = sandbox.diagnostics();
      sandbox.close();
      throw new SandboxBootException(
          "sandbox " + name + " did not boot: " + failure.getMessage() + diagnostics, failure);
    }
  }

  private static SystemdSandbox start(
      String name, Optional<SandboxDisk> disk, SandboxNetwork network) {
    Path workDir = null;
    SandboxCgroup cgroup = null;
    try {
      Path tempDir = Path.of(System.getProperty("java.io.tmpdir"));
      StaleSandboxes.removeLeftovers(SandboxCgroup.requireUnifiedHierarchy(), tempDir);
      workDir = Files.createTempDirectory(tempDir, StaleSandboxes.nameFor(name) + "-");
      Path mountPoint = Files.createDirectory(workDir.resolve("mnt"));
      Path launcherScript = executable(workDir.resolve("launch.sh"), BootScript.LAUNCHER);
      Path bootScript = executable(workDir.resolve("boot.sh"), BootScript.BOOT);
      Path bootLog = workDir.resolve("boot.log");
      cgroup = SandboxCgroup.create(name);
      List<String> command = new ArrayList<>(List.of(
          "/bin/sh",
          launcherScript.toString(),
          cgroup.directory().toString(),
          network.scriptArgument(),
          "/bin/sh",
          bootScript.toString(),
          mountPoint.toString(),
          name,
          disk.map(d -> d.directory().toString()).orElse(""),
          network.scriptArgument()));
      command.addAll(SandboxUnitMasks.units());
      Process launcher = new ProcessBuilder(command)
          .redirectError(ProcessBuilder.Redirect.appendTo(bootLog.toFile()))
          .start();
      long unsharePid = readUnsharePid(launcher, bootLog);
      SystemdSandbox sandbox =
          new SystemdSandbox(name, workDir, bootLog, cgroup, launcher, unsharePid, disk);
      LiveSandboxes.add(sandbox);
      disk.ifPresent(d -> d.attach(sandbox));
      return sandbox;
    } catch (IOException e) {
      cleanUpAfterFailedStart(workDir, cgroup);
      throw new SandboxBootException("cannot start sandbox " + name + ": " + e.getMessage(), e);
    }
  }

  private static long readUnsharePid(Process launcher, Path bootLog) throws IOException {
    BufferedReader stdout = new BufferedReader(
        new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        return stdout.readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      String pid = line.get(10, TimeUnit.SECONDS);
      if (pid == null || !pid.strip().matches("\\d+")) {
        throw new IOException(
            "the launcher printed no pid; boot log: " + Files.readString(bootLog));
      }
      return Long.parseLong(pid.strip());
    } catch (ExecutionException | TimeoutException e) {
      launcher.destroyForcibly();
      throw new IOException("the launcher did not start: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      launcher.destroyForcibly();
      throw new IOException("interrupted while starting the launcher", e);
    }
  }

  private void awaitRunning(long startedNanos, Duration timeout) {
    long deadline = startedNanos + timeout.toNanos();
    String lastState = "";
    while (System.nanoTime() < deadline) {
      if (!launcher.isAlive()) {
        throw new IllegalStateException("the launcher exited with " + launcher.exitValue());
      }
      if (init == null) {
        init = systemdChild().orElse(null);
      } else if (!init.isAlive()) {
        throw new IllegalStateException("systemd (pid " + init.pid() + ") died during boot");
      } else if (Files.exists(path("/run/systemd/private"))) {
        lastState = exec(List.of("systemctl", "is-system-running"), Duration.ofSeconds(10))
            .stdout()
            .strip();
        if (lastState.equals("running") || lastState.equals("degraded")) {
          bootTime = Duration.ofNanos(System.nanoTime() - startedNanos);
          if (lastState.equals("degraded")) {
            failedAtBoot = exec(
                    List.of("systemctl", "list-units", "--failed", "--plain", "--no-legend"),
                    COMMAND_TIMEOUT)
                .stdout()
                .lines()
                .map(l -> l.split("\\s+")[0])
                .filter(l -> !l.isBlank())
                .toList();
          }
          return;
        }
      }
      pause(POLL);
    }
    throw new IllegalStateException(
        "not running after " + timeout + " (last state: '" + lastState + "')");
  }

  /** The unshare'd child once it has exec'd systemd. */
  private Optional<ProcessHandle> systemdChild() {
    return ProcessHandle.of(unsharePid).stream()
        .flatMap(ProcessHandle::children)
        .filter(child -> readComm(child.pid()).equals("systemd"))
        .findFirst();
  }

  private static String readComm(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
    } catch (IOException gone) {
      return "";
    }
  }

  /** The host pid of the sandbox's PID 1 (its systemd). */
  public long pid() {
    return init.pid();
  }

  /** The sandbox's root directory seen from the host: {@code /proc/<pid>/root}. */
  public Path root() {
    return Path.of("/proc", Long.toString(pid()), "root");
  }

  /** A path inside the sandbox, seen from the host: {@code sandbox.path("/etc/systemd/system")}. */
  public Path path(String absolutePathInside) {
    if (!absolutePathInside.startsWith("/")) {
      throw new IllegalArgumentException(
          "expected an absolute path inside the sandbox: " + absolutePathInside);
    }
    return root().resolve(absolutePathInside.substring(1));
  }

  /** The sandbox's system bus: {@code unix:path=/proc/<pid>/root/run/dbus/system_bus_socket}. */
  public String busAddress() {
    return "unix:path=" + path("/run/dbus/system_bus_socket");
  }

  /** How long the boot took, from starting the launcher to {@code running}/{@code degraded}. */
  public Duration bootTime() {
    return bootTime;
  }

  /** The units that had failed when the boot finished (empty when it reached {@code running}). */
  public List<String> failedAtBoot() {
    return failedAtBoot;
  }

  public String name() {
    return name;
  }

  /**
   * The command line that runs {@code command} inside the sandbox (its namespaces, network
   * included, and root, cwd {@code /}), for a caller that starts the process itself.
   */
  public List<String> inside(List<String> command) {
    List<String> full = new ArrayList<>(List.of(
        "nsenter",
        "--target",
        Long.toString(pid()),
        "--mount",
        "--net",
        "--uts",
        "--ipc",
        "--pid",
        "--root",
        "--wd",
        "--"));
    full.addAll(command);
    return full;
  }

  /** Runs {@code command} inside the sandbox (its namespaces and root, cwd {@code /}). */
  public CommandResult exec(List<String> command, Duration timeout) {
    List<String> full = inside(command);
    CommandResult result = HostCommand.run(full, timeout);
    return new CommandResult(
        command, result.exitCode(), result.stdout(), result.stderr(), result.timedOut());
  }

  public CommandResult exec(String... command) {
    return exec(List.of(command), COMMAND_TIMEOUT);
  }

  /** {@code systemctl <args>} inside the sandbox. */
  public CommandResult systemctl(String... args) {
    List<String> command = new ArrayList<>(List.of("systemctl", "--no-pager"));
    command.addAll(List.of(args));
    return exec(command, COMMAND_TIMEOUT);
  }

  /** The journal of {@code unit} in this boot (the last 200 lines), for failure messages. */
  public String journal(String unit) {
    return exec(List.of("journalctl", "--no-pager", "-b", "-n", "200", "-u", unit), COMMAND_TIMEOUT)
        .stdout();
  }

  /**
   * The journal of this boot, every line with its monotonic time ({@code journalctl -b -o
   * short-monotonic}). It starts when journald does, which is before {@code sysinit.target}, so
   * every unit with default dependencies is in it from its start on. What PID 1 logged before
   * journald ran (its version, the first targets and sockets, units with {@code
   * DefaultDependencies=no} that ran that early) went to the sandbox's console, {@code /dev/null};
   * {@link #unitTimes} covers those units too.
   */
  public String bootJournal() {
    return exec(List.of("journalctl", "--no-pager", "-b", "-o", "short-monotonic"), COMMAND_TIMEOUT)
        .orThrow()
        .stdout();
  }

  /**
   * When each of {@code units} started and became active in this boot, from its systemd's own
   * records, in start order (units that did not start last): so that a test can assert "A had
   * finished before B started" with {@link UnitTimes#finishedBefore}.
   */
  public List<UnitTimes> unitTimes(List<String> units) {
    if (units.isEmpty()) {
      return List.of();
    }
    List<String> command = new ArrayList<>(List.of(
        "systemctl",
        "show",
        "--no-pager",
        "--timestamp=us+utc",
        "-p",
        String.join(",", UnitTimes.PROPERTIES)));
    command.addAll(units);
    return UnitTimes.parseShow(units, exec(command, COMMAND_TIMEOUT).orThrow().stdout());
  }

  /** The jobs PID 1 completed in this boot and logged to the journal, in the journal's order. */
  public List<JobResult> jobResults() {
    return JobResult.parseJournalJson(exec(
            List.of(
                "journalctl",
                "--no-pager",
                "-b",
                "_PID=1",
                "-o",
                "json",
                "--output-fields=UNIT,JOB_TYPE,JOB_RESULT,MESSAGE_ID"),
            COMMAND_TIMEOUT)
        .orThrow()
        .stdout());
  }

  /**
   * Cuts the sandbox's power: SIGKILL to every process of its PID namespace (those a caller
   * entered with {@link #inside} too, which are not in the sandbox's cgroup), addressed by pid, then
   * to its PID 1, which would end them as well but only once its own exit is done: killing them
   * first stops a process that is writing within a millisecond or so of the call, as a power cut
   * stops a machine; then waits until none of them is
   * left (in its PID or mount namespace or its cgroup) and removes its cgroup and temporary files.
   * Its {@link SandboxDisk}, if it has one, keeps everything written to it: the overlay's upper
   * layer is an ordinary host directory and the host's page cache survives the cut, so even writes
   * never fsync'ed are there at the next boot. There is no block device under the disk to drop
   * unsynced writes; the testkit's simulated host models that loss.
   *
   * @throws IllegalStateException when the sandbox was stopped already, or some of its processes
   *     are still alive after ten seconds
   */
  public void powerCut() {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException(this + " is not running");
      }
      closed = true;
    }
    List<FileChannel> held = new ArrayList<>();
    try {
      Set<String> namespaces = namespacesOf(pid());
      holdNamespaces(pid(), held);
      for (long inside : processesIn(namespaces)) {
        if (inside != pid()) {
          ProcessHandle.of(inside).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
      kill();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      List<Long> left = processesIn(namespaces);
      while (!left.isEmpty() && System.nanoTime() < deadline) {
        pause(Duration.ofMillis(20));
        left = processesIn(namespaces);
      }
      if (!left.isEmpty()) {
        throw new IllegalStateException(
            "processes " + left + " of sandbox " + name + " outlived its power cut");
      }
      cgroup.remove(Duration.ofSeconds(10));
    } catch (IOException e) {
      throw new IllegalStateException("sandbox " + name + ": power cut incomplete: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during the power cut of " + name, e);
    } finally {
      for (FileChannel namespace : held) {
        try {
          namespace.close();
        } catch (IOException ignored) {
          // nothing to release
        }
      }
      release();
    }
  }

  /**
   * Opens {@code pid}'s PID and mount namespaces, so that they outlive their processes while the
   * power cut waits for those to end: a namespace's inode number is reused once it is freed, and
   * a namespace a sandbox booted meanwhile would otherwise look like this one.
   */
  private static void holdNamespaces(long pid, List<FileChannel> held) throws IOException {
    for (String kind : List.of("pid", "mnt")) {
      held.add(FileChannel.open(
          Path.of("/proc", Long.toString(pid), "ns", kind), StandardOpenOption.READ));
    }
  }

  /**
   * Stops the sandbox: SIGKILL to its PID 1 by pid, then waits for the namespace to empty and
   * removes the cgroup subtree and the temporary directory. Idempotent; never throws. A disk
   * keeps what was written to it, as after {@link #powerCut()}.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      kill();
      cgroup.remove(Duration.ofSeconds(10));
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      System.err.println("sandbox " + name + ": cleanup incomplete: " + e);
    } finally {
      release();
    }
  }

  /** SIGKILL to PID 1, end of input to the launcher, and its end. */
  private void kill() throws InterruptedException {
    if (init != null) {
      init.destroyForcibly();
    }
    try (OutputStream stdin = launcher.getOutputStream()) {
      stdin.flush();
    } catch (IOException alreadyGone) {
      // the launcher ended first; nothing to tell it
    }
    if (!launcher.waitFor(10, TimeUnit.SECONDS)) {
      launcher.destroyForcibly();
      launcher.waitFor(5, TimeUnit.SECONDS);
    }
  }

  private void release() {
    deleteWorkDir(workDir);
    LiveSandboxes.remove(this);
    disk.ifPresent(SandboxDisk::release);
  }

  /** The PID and mount namespaces of {@code pid}, as {@code pid:[<inode>]}, {@code mnt:[...]}. */
  private static Set<String> namespacesOf(long pid) {
    Set<String> namespaces = new HashSet<>();
    for (String kind : List.of("pid", "mnt")) {
      try {
        namespaces.add(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", kind))
            .toString());
      } catch (IOException gone) {
        // the process ended (or is a zombie, which holds no namespace)
      }
    }
    return namespaces;
  }

  private static List<Long> processesIn(Set<String> namespaces) throws IOException {
    List<Long> inside = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path entry : entries) {
        String name = String.valueOf(entry.getFileName());
        if (DIGITS.matcher(name).matches()
            && !Collections.disjoint(namespacesOf(Long.parseLong(name)), namespaces)) {
          inside.add(Long.parseLong(name));
        }
      }
    }
    return inside;
  }

  private String diagnostics() {
    StringBuilder text = new StringBuilder();
    try {
      String log = Files.readString(bootLog).strip();
      if (!log.isEmpty()) {
        text.append("\nboot log:\n").append(log);
      }
    } catch (IOException ignored) {
      // no boot log written
    }
    if (init != null && init.isAlive()) {
      text.append("\njournal:\n")
          .append(
              exec(List.of("journalctl", "--no-pager", "-b", "-n", "60"), Duration.ofSeconds(10))
                  .stdout());
    }
    return text.toString();
  }

  private static Path executable(Path file, String content) throws IOException {
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  private static void cleanUpAfterFailedStart(Path workDir, SandboxCgroup cgroup) {
    try {
      if (cgroup != null) {
        cgroup.remove(Duration.ofSeconds(5));
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("cannot remove a sandbox cgroup: " + e);
    }
    deleteWorkDir(workDir);
  }

  /** Deletes exactly the files this class created; the mount point is empty on the host. */
  static void deleteWorkDir(Path workDir) {
    if (workDir == null) {
      return;
    }
    for (String file : List.of("launch.sh", "boot.sh", "boot.log", "mnt", "")) {
      try {
        Files.deleteIfExists(file.isEmpty() ? workDir : workDir.resolve(file));
      } catch (IOException e) {
        System.err.println("cannot delete " + workDir.resolve(file) + ": " + e);
      }
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return "SystemdSandbox[" + name + (init == null ? "" : ", pid " + init.pid()) + "]";
  }
}
