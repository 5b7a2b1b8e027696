package dev.noneops.benchmarks.e2e;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.standins.KubeletStandIn;
import dev.noneops.testkit.fixtures.system.SandboxRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Row 1's floor: the switch-over's systemd jobs and nothing else, with kubelet's healthz taken as
 * seen the instant it is served. The three units are stopped in one request, {@code current} is
 * flipped by a symlink and a rename, the three are started in one request, and the window ends at
 * the instant the kubelet stand-in logged that its healthz began answering ({@link
 * KubeletStandIn#SERVING_SINCE}, read from the sandbox's journal afterwards), so no detection is
 * paid at all.
 *
 * <p>Two ways of issuing the jobs are measured: {@code systemctl} inside the sandbox (one process
 * for the stop, {@code ln} and {@code mv} for the flip, one for the start, timed by bash's {@code
 * $EPOCHREALTIME}, which starts no process), and D-Bus calls from this JVM (all stop jobs
 * enqueued, then awaited; the flip by {@code symlink(2)} and {@code rename(2)}; all start jobs
 * enqueued, then awaited). The D-Bus floor is the lower and the goal's: a {@code systemctl}
 * process per request costs more than a call on a connection already open.
 */
final class FloorSwitch {
  /** The stack's units in the order a start names them, and the stop order. */
  static final List<String> START = HostPaths.STACK_UNITS;

  static final List<String> STOP = HostPaths.STACK_STOP_ORDER;

  private final SystemdSandbox sandbox;
  private final Systemd systemd;
  private final Layout layout;
  private final Duration timeout;

  FloorSwitch(SystemdSandbox sandbox, Systemd systemd, Layout layout, Duration timeout) {
    this.sandbox = sandbox;
    this.systemd = systemd;
    this.layout = layout;
    this.timeout = timeout;
  }

  /**
   * The instants of one switch-over, in nanoseconds since the epoch (CLOCK_REALTIME): its start
   * (the stop issued), the stop done, the start issued (for the floor: the flip done), the start
   * done (kubelet's start job done: kubelet active), kubelet's healthz served (its journal line),
   * and kubelet's healthz seen (for the floor: the instant it was served).
   */
  record Phases(long start, long stopped, long starting, long started, long served, long seen) {
    Phases withServed(long at, boolean seenAtOnce) {
      if (at < start || (!seenAtOnce && at > seen)) {
        throw new IllegalStateException("kubelet's healthz was served at " + at
            + " ns, outside the window " + this + ": the journal line is not this run's");
      }
      return new Phases(start, stopped, starting, started, at, seenAtOnce ? at : seen);
    }

    double windowMillis() {
      return ms(seen - start);
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "stop %.1f, between %.1f, start %.1f, kubelet active → healthz %.1f, seen %.1f ms later",
          ms(stopped - start),
          ms(starting - stopped),
          ms(started - starting),
          ms(served - started),
          ms(seen - served));
    }

    private static double ms(long nanos) {
      return nanos / 1e6;
    }
  }

  /** The phases of many switch-overs, each phase's durations in milliseconds. */
  static final class Series {
    final Samples window = new Samples("ms");
    final Samples stop = new Samples("ms");
    final Samples between = new Samples("ms");
    final Samples start = new Samples("ms");
    final Samples kubeletUp = new Samples("ms");
    final Samples detection = new Samples("ms");

    void add(Phases p) {
      window.add(p.windowMillis());
      stop.add((p.stopped() - p.start()) / 1e6);
      between.add((p.starting() - p.stopped()) / 1e6);
      start.add((p.started() - p.starting()) / 1e6);
      kubeletUp.add((p.served() - p.started()) / 1e6);
      detection.add((p.seen() - p.served()) / 1e6);
    }
  }

  /**
   * The floor with {@code systemctl}: a bash inside the sandbox (entered via {@code nsenter}
   * before the window opens) stops the units, flips {@code current} to {@code version} and starts
   * the units, timing itself with {@code $EPOCHREALTIME}.
   */
  Phases bySystemctl(String version) throws Exception {
    String script = String.join(
        "\n",
        "set -eu",
        "cd '" + layout.root() + "'",
        "t0=$EPOCHREALTIME",
        "systemctl stop " + String.join(" ", STOP),
        "t1=$EPOCHREALTIME",
        "ln -sfn '" + version + "' current.tmp && mv -T current.tmp current",
        "t2=$EPOCHREALTIME",
        "systemctl start " + String.join(" ", START),
        "t3=$EPOCHREALTIME",
        "echo \"$t0 $t1 $t2 $t3\"");
    Shell.Result r = Shell.check(sandbox.inside(List.of("bash", "-c", script)), timeout);
    String[] t = r.out().strip().split(" ");
    long start = micros(t[0]);
    Phases p = new Phases(start, micros(t[1]), micros(t[2]), micros(t[3]), 0, 0);
    return p.withServed(served(start), true);
  }

  /**
   * The floor over D-Bus from this JVM: the same jobs through the connection the benchmark holds
   * ({@link Systemd#stopAll}, {@link Systemd#startAll}: every job enqueued, then awaited), the
   * flip by a symlink and a rename through the sandbox's root.
   */
  Phases byDbus(String version) throws Exception {
    Path root = new SandboxRoot(sandbox.pid()).outside(layout.root());
    Path tmp = root.resolve("current.tmp");
    Files.deleteIfExists(tmp);
    long start = now();
    require("stop", STOP, systemd.stopAll(STOP, timeout));
    long stopped = now();
    Files.createSymbolicLink(tmp, Path.of(version));
    Files.move(tmp, root.resolve(Layout.CURRENT), StandardCopyOption.ATOMIC_MOVE);
    long flipped = now();
    require("start", START, systemd.startAll(START, timeout));
    long started = now();
    return new Phases(start, stopped, flipped, started, 0, 0).withServed(served(start), true);
  }

  private static void require(String job, List<String> units, List<JobResult> results) {
    for (int i = 0; i < units.size(); i++) {
      if (!results.get(i).succeeded()) {
        throw new IllegalStateException(job + " of " + units.get(i) + ": " + results.get(i));
      }
    }
  }

  /**
   * The instant kubelet's stand-in logged its healthz answering, the newest such line at or after
   * {@code after}; the journal receives the line a little after the stand-in wrote it.
   */
  long served(long after) throws InterruptedException {
    long newest = 0;
    for (int attempt = 0; attempt < 100; attempt++) {
      newest = newestServed(sandbox);
      if (newest >= after) {
        return newest;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "kubelet's stand-in logged no '" + KubeletStandIn.SERVING_SINCE.strip() + "' line after "
            + after + " (newest: " + newest + ")");
  }

  /** The newest instant kubelet's stand-in logged its healthz answering; 0 without any. */
  static long newestServed(SystemdSandbox sandbox) {
    String journal = sandbox
        .exec(
            List.of("journalctl", "--no-pager", "-o", "cat", "-u", HostPaths.KUBELET_UNIT),
            Duration.ofSeconds(30))
        .stdout();
    return journal
        .lines()
        .filter(l -> l.startsWith(KubeletStandIn.SERVING_SINCE))
        .mapToLong(l ->
            Long.parseLong(l.substring(KubeletStandIn.SERVING_SINCE.length()).strip()))
        .max()
        .orElse(0);
  }

  /** Sleeps until the epoch instant {@code at} (nanoseconds), at once when it has passed. */
  static void sleepUntil(long at) throws InterruptedException {
    long left = at - now();
    if (left > 0) {
      Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
    }
  }

  static long now() {
    Instant at = Instant.now();
    return at.getEpochSecond() * 1_000_000_000L + at.getNano();
  }

  /** bash's {@code $EPOCHREALTIME} ({@code seconds.micros}) in nanoseconds. */
  private static long micros(String epochRealtime) {
    return Long.parseLong(epochRealtime.replace(".", "").replace(",", "")) * 1_000L;
  }
}
