package dev.noneops.acceptance.upgrade;

import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.fixtures.node.BootLog;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

/**
 * Crashes a node at every crash point of an operation and checks what it recovers to. An
 * operation runs on a host booted from a base image (a node with its agent, so its recovery gate);
 * for every k, a fresh host loses power at crash point k (every mutating port call and every
 * internal step of one, such as between the fsync and the rename of a durable write) and boots
 * on what was durable as systemd boots it ({@link SimNode#boot()}): the recovery gate runs
 * {@code noneops recover --at-boot} with the applied config read from disk before the stack's
 * units start, and nothing else recovers the node. The invariants are checked on the node as the
 * boot brought it up. {@link #crashEveryRecovery()} then makes every distinct boot (distinct
 * sequence of the gate's mutating calls and their arguments) lose power at each of its crash
 * points (the gate's mutating calls and their internal steps), and the boot after must again
 * reach the invariants.
 *
 * <p>The first operation explored is the reference: a later one is crashed only from where it
 * first makes a mutating call the reference does not make at that position, since before that it
 * leaves the very disks the reference's crash points of the same numbers leave. A crash leaves
 * only the durable file tree, so a surviving state is captured as a {@link HostImage} and laid
 * into fresh hosts; crash points whose surviving disks are byte-identical lead to identical
 * recoveries, so each distinct state is recovered and checked once and every crash point that
 * produced it counts as recovered by that check. Crash points run in parallel, each on its own
 * simulated host.
 */
final class CrashPointExplorer implements AutoCloseable {

  /** One operation to crash in: what to set up on the booted node, then what the caller does. */
  record Operation(String name, Consumer<SimNode> arrange, Consumer<SimNode> run) {}

  /** What one crash left: where it was and the surviving disk. */
  private record Crash(String where, HostImage survivor) {}

  /**
   * One step of the exploration: an operation's crash points (or every recovery's), the distinct
   * disks checked for the first time in it, and its wall time.
   */
  record Step(String name, long crashPoints, int newDisks, long millis) {
    /** The line bin/benchmarks reads: {@code crash-point step: <name>; points N; new disks D; ms T}. */
    String line() {
      return "crash-point step: " + name + "; points " + crashPoints + "; new disks " + newDisks
          + "; ms " + millis;
    }
  }

  private final HostImage base;
  private final Consumer<SimNode> onEveryBoot;
  private final UpgradeInvariants invariants;
  private final ForkJoinPool pool =
      new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
  private final Map<String, List<String>> verdicts = new ConcurrentHashMap<>();
  private final Map<String, HostImage> survivors = new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();
  private Operation reference;
  private long operationCrashPoints;
  private int operationStates;
  private long covered;
  private long recovered;
  private int distinctRecoveries;
  private final List<Step> steps = new ArrayList<>();

  /**
   * @param base the surviving disk every operation starts from
   * @param onEveryBoot what a booted host gets before an operation runs (e.g. the target's artifacts published)
   * @param invariants what every crash must leave and every recovery reach
   */
  CrashPointExplorer(HostImage base, Consumer<SimNode> onEveryBoot, UpgradeInvariants invariants) {
    this.base = base;
    this.onEveryBoot = onEveryBoot;
    this.invariants = invariants;
  }

  /** Crashes {@code operation} at each of its crash points (from where it leaves the reference) and checks every recovery. */
  void crashEveryPointOf(Operation operation) throws InterruptedException, ExecutionException {
    long began = System.nanoTime();
    long coveredBefore = covered;
    int disksBefore = verdicts.size();
    long first = reference == null ? 1 : firstCrashPointOfDivergence(reference, operation);
    if (reference == null) {
      reference = operation;
    }
    long points = crashPoints(operation);
    List<Crash> crashes = pool.submit(() -> LongStream.rangeClosed(first, points)
            .parallel()
            .mapToObj(k -> crashAt(operation, k))
            .toList())
        .get();
    pool.submit(() -> verify(crashes)).get();
    operationCrashPoints = covered;
    operationStates = verdicts.size();
    steps.add(new Step(
        operation.name(),
        covered - coveredBefore,
        verdicts.size() - disksBefore,
        (System.nanoTime() - began) / 1_000_000));
  }

  /** Crashes every distinct recovery of the states the operations left at each of its crash points, and checks the recovery after. */
  void crashEveryRecovery() throws InterruptedException, ExecutionException {
    long began = System.nanoTime();
    long coveredBefore = covered;
    int disksBefore = verdicts.size();
    Map<List<String>, HostImage> trajectories = new LinkedHashMap<>();
    for (HostImage survivor : List.copyOf(survivors.values())) {
      trajectories.putIfAbsent(pool.submit(() -> recoveryTrajectory(survivor)).get(), survivor);
    }
    distinctRecoveries = trajectories.size();
    for (HostImage survivor : trajectories.values()) {
      long points = pool.submit(() -> recoveryCrashPoints(survivor)).get();
      List<Crash> crashes = pool.submit(() -> LongStream.rangeClosed(1, points)
              .parallel()
              .mapToObj(k -> crashRecoveryAt(survivor, k))
              .toList())
          .get();
      pool.submit(() -> verify(crashes)).get();
    }
    steps.add(new Step(
        "every distinct recovery (" + distinctRecoveries + ")",
        covered - coveredBefore,
        verdicts.size() - disksBefore,
        (System.nanoTime() - began) / 1_000_000));
  }

  /** The exploration's steps so far, in order. */
  List<Step> steps() {
    return List.copyOf(steps);
  }

  /** Every crash point crashed so far. */
  long covered() {
    return covered;
  }

  /** The crash points whose recovery reached every invariant. */
  long recovered() {
    return recovered;
  }

  /** The crash points whose recovery broke an invariant, each with what it broke. */
  List<String> failures() {
    return List.copyOf(failures);
  }

  /** A line on how the crash points spread over operations, distinct disks and distinct recoveries. */
  String summary() {
    return "operation crash points " + operationCrashPoints + " leaving " + operationStates
        + " distinct disks with " + distinctRecoveries
        + " distinct recoveries; recovery crash points "
        + (covered - operationCrashPoints) + "; distinct disks checked in all " + verdicts.size();
  }

  @Override
  public void close() {
    pool.shutdown();
  }

  /** A host started from the base image as systemd boots it (the gate, then the stack), then {@link #onEveryBoot}. */
  private SimNode bootBase() {
    SimNode lab = new SimNode(base.newHost());
    lab.boot();
    onEveryBoot.accept(lab);
    return lab;
  }

  /** How many crash points the operation passes when nothing crashes. */
  private long crashPoints(Operation operation) {
    SimNode lab = bootBase();
    operation.arrange().accept(lab);
    long before = lab.host.journal().crashPointCount();
    operation.run().accept(lab);
    return lab.host.journal().crashPointCount() - before;
  }

  /**
   * The crash point of {@code other} at which it first makes a mutating call {@code reference}
   * does not make at that position (the same call with the same arguments).
   */
  private long firstCrashPointOfDivergence(Operation reference, Operation other) {
    List<String> expected = mutatingCalls(reference);
    List<String> actual = mutatingCalls(other);
    int i = 0;
    while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
      i++;
    }
    SimNode lab = bootBase();
    other.arrange().accept(lab);
    long before = lab.host.journal().crashPointCount();
    lab.host.faults().crashAtMutatingCall(i + 1);
    if (!crashes(() -> other.run().accept(lab))) {
      throw new AssertionError(other.name() + " made no mutating call " + (i + 1));
    }
    return lab.host.journal().crashPointCount() - before;
  }

  private List<String> mutatingCalls(Operation operation) {
    SimNode lab = bootBase();
    operation.arrange().accept(lab);
    int before = lab.host.journal().calls().size();
    operation.run().accept(lab);
    List<PortCall> calls = lab.host.journal().calls();
    return calls.subList(before, calls.size()).stream()
        .filter(PortCall::mutating)
        .map(c -> c.port() + "." + c.method() + c.args())
        .toList();
  }

  private Crash crashAt(Operation operation, long k) {
    SimNode lab = bootBase();
    operation.arrange().accept(lab);
    lab.host.faults().crashAtCrashPoint(k);
    if (!crashes(() -> operation.run().accept(lab))) {
      throw new AssertionError(operation.name() + " passed crash point " + k + " without crashing");
    }
    lab.host.crash();
    return new Crash(operation.name() + ", crash point " + k, HostImage.capture(lab.host));
  }

  /**
   * The mutating calls (each with its arguments) a boot from {@code survivor} makes (the gate's;
   * starting units is no port call), in order. Surviving disks whose boots make the very same
   * calls on the very same paths are crashed through one representative: crashing the others at
   * the same calls exercises nothing new.
   */
  private List<String> recoveryTrajectory(HostImage survivor) {
    SimNode lab = new SimNode(survivor.newHost());
    int before = lab.host.journal().calls().size();
    lab.boot();
    List<PortCall> calls = lab.host.journal().calls();
    return calls.subList(before, calls.size()).stream()
        .filter(PortCall::mutating)
        .map(c -> (c.port() + "." + c.method() + c.args())
            .replaceAll(TEMP_NAME, HostFiles.TEMP_PREFIX + "*"))
        .toList();
  }

  /** A temp file's name: which one an interrupted write left does not change what recovery does with it. */
  private static final String TEMP_NAME = Pattern.quote(HostFiles.TEMP_PREFIX) + "[^/,\\]]*";

  /** How many crash points a boot from {@code survivor} passes when nothing crashes. */
  private long recoveryCrashPoints(HostImage survivor) {
    SimNode lab = new SimNode(survivor.newHost());
    long before = lab.host.journal().crashPointCount();
    lab.boot();
    return lab.host.journal().crashPointCount() - before;
  }

  private Crash crashRecoveryAt(HostImage survivor, long k) {
    SimNode lab = new SimNode(survivor.newHost());
    lab.host.faults().crashAtCrashPoint(k);
    if (!crashes(lab::boot)) {
      throw new AssertionError("a boot passed its crash point " + k + " without crashing");
    }
    lab.host.crash();
    return new Crash(
        "boot from state " + survivor.digest().substring(0, 12) + ", crash at its crash point " + k,
        HostImage.capture(lab.host));
  }

  /** Counts the crashes and their verified recoveries; checks each distinct surviving state once. */
  private void verify(Collection<Crash> crashes) {
    Map<String, HostImage> distinct = new LinkedHashMap<>();
    crashes.forEach(c -> distinct.putIfAbsent(c.survivor().digest(), c.survivor()));
    distinct.values().parallelStream()
        .forEach(image -> verdicts.computeIfAbsent(image.digest(), d -> check(image)));
    for (Crash c : crashes) {
      covered++;
      survivors.putIfAbsent(c.survivor().digest(), c.survivor());
      List<String> verdict = verdicts.get(c.survivor().digest());
      if (verdict.isEmpty()) {
        recovered++;
      } else {
        failures.add(c.where() + ": " + String.join("; ", verdict));
      }
    }
  }

  /** The violations of one surviving state: at the crash, then once it booted through the gate. */
  private List<String> check(HostImage image) {
    SimNode lab = new SimNode(image.newHost());
    List<String> out = new ArrayList<>();
    invariants.currentIsValid(lab).forEach(v -> out.add("at the crash: " + v));
    boolean inFlight = UpgradeInvariants.somethingInFlight(lab);
    BootLog boot;
    try {
      boot = lab.boot();
    } catch (RuntimeException e) {
      out.add("the boot failed: " + e);
      return out;
    }
    out.addAll(invariants.bootedThroughTheGate(lab, boot, inFlight));
    if (UpgradeInvariants.skippedTheGate(boot)) {
      // the daemon's recovery at its start, which follows every boot, sweeps what interrupted
      // writes left outside the layout; the gate swept it when it ran
      lab.applied().ifPresent(applied -> lab.node(applied).recoverUpgrade(applied));
    }
    out.addAll(invariants.recovered(lab));
    return out;
  }

  private static boolean crashes(Runnable run) {
    try {
      run.run();
      return false;
    } catch (SimulatedCrash crash) {
      return true;
    }
  }
}
