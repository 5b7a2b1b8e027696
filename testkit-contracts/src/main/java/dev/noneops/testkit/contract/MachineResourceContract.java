package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachineEvent;
import dev.noneops.ports.machine.MachineOperations;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link MachineResource} contract: registration that tolerates an existing Machine, a watch
 * that delivers every change and survives a lost connection without losing the latest state, and
 * status writes that never overwrite what another writer wrote in between. A subclass supplies the
 * port connected to a cluster of its own for each test, that cluster as another client acts on it,
 * a way to lose the port's watch connections, and a cluster without the Machine CRD.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class MachineResourceContract {
  /** How long an event may take to arrive. */
  protected static final Duration EVENT_WAIT = Duration.ofSeconds(15);

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final MachineSpec SPEC = MachineSpec.EMPTY.withKubernetes(new KubernetesSpec(
      "1.31.4",
      Map.of("node.kubernetes.io/pool", "edge", "zone", "a"),
      List.of("dedicated=edge:NoSchedule"),
      "bootstrap-token-abcdef"));

  private final List<MachineWatch> watches = new ArrayList<>();

  /** The port under test, connected to this test's cluster (which has the Machine CRD). */
  protected abstract MachineResource resource() throws Exception;

  /** Creates the Machine, or replaces its spec keeping its status, as another client. */
  protected abstract void putAsAnotherClient(String name, MachineSpec spec) throws Exception;

  /** Changes the Machine's spec as another client (a fleet bumping a counter). */
  protected abstract void updateSpecAsAnotherClient(String name, UnaryOperator<MachineSpec> change)
      throws Exception;

  /** Writes the Machine's status as another client, unconditionally. */
  protected abstract void writeStatusAsAnotherClient(
      String name, UnaryOperator<MachineStatus> change) throws Exception;

  /** Deletes the Machine as another client. */
  protected abstract void deleteAsAnotherClient(String name) throws Exception;

  /**
   * Loses every watch connection of {@link #resource()}, runs {@code change} while they are lost
   * (so no watch can see it), then lets them connect again.
   */
  protected abstract void whileWatchesAreLost(ThrowingRunnable change) throws Exception;

  /** The port connected to a cluster that does not serve the Machine resource type. */
  protected abstract MachineResource resourceWithoutMachineType() throws Exception;

  /** Something a fixture runs that may throw. */
  @FunctionalInterface
  public interface ThrowingRunnable {
    void run() throws Exception;
  }

  @AfterEach
  void closeWatches() {
    watches.forEach(MachineWatch::close);
  }

  // ---- get and create ----

  @Test
  void aMachineThatDoesNotExistIsAnEmptyAnswer() throws Exception {
    assertThat(resource().get("node-1")).isEmpty();
  }

  @Test
  void createMakesTheMachineWithItsSpecAndNoStatus() throws Exception {
    assertThat(resource().create("node-1", SPEC)).isTrue();

    Machine stored = resource().get("node-1").orElseThrow();
    assertThat(stored.name()).isEqualTo("node-1");
    assertThat(stored.spec()).isEqualTo(SPEC);
    assertThat(stored.status()).isEqualTo(MachineStatus.EMPTY);
    assertThat(stored.resourceVersion()).isNotEmpty();
  }

  @Test
  void creatingAMachineThatExistsIsSuccessAndLeavesItAsItIs() throws Exception {
    MachineSpec theirs = SPEC.withKubernetes(SPEC.kubernetes().withVersion("1.32.1"));
    putAsAnotherClient("node-1", theirs);

    assertThat(resource().create("node-1", SPEC)).isFalse();

    assertThat(resource().get("node-1").orElseThrow().spec()).isEqualTo(theirs);
  }

  @Test
  void aNameThatIsNotAnObjectNameIsRefusedBeforeTheServerIsAsked() throws Exception {
    MachineResource resource = resource();

    assertThatThrownBy(() -> resource.get("Node_1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> resource.create("", SPEC))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> resource.watch("-x", e -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> resource.updateStatus("a/b", s -> s))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- watch ----

  @Test
  void aWatchDeliversTheMachineThenEveryChangeInOrder() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    Events events = watch("node-1");

    assertThat(events.next(e -> true).kind()).isEqualTo(MachineEvent.Kind.ADDED);
    updateSpecAsAnotherClient("node-1", repave(1));
    updateSpecAsAnotherClient("node-1", repave(2));

    MachineEvent first = events.next(e -> e.kind() == MachineEvent.Kind.MODIFIED);
    MachineEvent second = events.next(e -> e.kind() == MachineEvent.Kind.MODIFIED);
    assertThat(first.machine().spec().operations().repaveCounter()).isEqualTo(1);
    assertThat(second.machine().spec().operations().repaveCounter()).isEqualTo(2);
  }

  @Test
  void aWatchOfAMachineNotYetThereSeesItCreatedAndDeleted() throws Exception {
    Events events = watch("node-1");

    resource().create("node-1", SPEC);
    MachineEvent added = events.next(e -> e.kind() == MachineEvent.Kind.ADDED);
    deleteAsAnotherClient("node-1");
    MachineEvent deleted = events.next(e -> e.kind() == MachineEvent.Kind.DELETED);

    assertThat(added.machine().spec()).isEqualTo(SPEC);
    assertThat(deleted.machine().name()).isEqualTo("node-1");
  }

  @Test
  void aLostWatchResumesAndResyncsWithoutLosingTheLatestState() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    Events events = watchThatIsLive("node-1");

    whileWatchesAreLost(() -> updateSpecAsAnotherClient("node-1", repave(7)));

    MachineEvent resynced = events.next(e -> repaveCounter(e) == 7);
    assertThat(resynced.kind()).isEqualTo(MachineEvent.Kind.RESYNCED);
    updateSpecAsAnotherClient("node-1", repave(8));
    assertThat(events.next(e -> repaveCounter(e) == 8).kind())
        .as("the resumed watch sees changes again")
        .isEqualTo(MachineEvent.Kind.MODIFIED);
  }

  @Test
  void aMachineDeletedWhileTheWatchWasLostIsDeliveredAsDeleted() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    Events events = watchThatIsLive("node-1");

    whileWatchesAreLost(() -> deleteAsAnotherClient("node-1"));

    assertThat(events.next(e -> e.kind() != MachineEvent.Kind.RESYNCED).kind())
        .isEqualTo(MachineEvent.Kind.DELETED);
  }

  @Test
  void aClosedWatchDeliversNothingMore() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    Events events = watchThatIsLive("node-1");

    events.watch.close();
    updateSpecAsAnotherClient("node-1", repave(3));

    assertThat(events.queue.poll(500, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void aListenerThatThrowsDoesNotEndTheWatch() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    BlockingQueue<MachineEvent> seen = new LinkedBlockingQueue<>();
    watches.add(resource().watch("node-1", e -> {
      seen.add(e);
      throw new IllegalStateException("listener bug");
    }));
    assertThat(seen.poll(EVENT_WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();

    updateSpecAsAnotherClient("node-1", repave(1));

    assertThat(new Events(seen, null).next(e -> repaveCounter(e) == 1).kind())
        .isEqualTo(MachineEvent.Kind.MODIFIED);
  }

  // ---- status ----

  @Test
  void updateStatusWritesTheMutationOfTheCurrentStatus() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    String before = resource().get("node-1").orElseThrow().resourceVersion();

    Machine written = resource()
        .updateStatus(
            "node-1",
            s -> s.withPhase(MachinePhase.PROVISIONING)
                .withOperations(new MachineOperations(0, 0))
                .withCondition(pending()));

    Machine stored = resource().get("node-1").orElseThrow();
    assertThat(stored.status()).isEqualTo(written.status());
    assertThat(stored.status().phase()).isEqualTo(MachinePhase.PROVISIONING);
    assertThat(stored.status().condition(MachineCondition.REPAVED)).contains(pending());
    assertThat(stored.resourceVersion()).isNotEqualTo(before);
    assertThat(stored.spec()).as("a status write leaves the spec alone").isEqualTo(SPEC);
  }

  @Test
  void aConflictingStatusWriteIsReadAgainAndRetriedNeverOverwritten() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    MachineCondition theirs =
        new MachineCondition("NodeHealthy", MachineCondition.Status.TRUE, "KubeletReady", "", T0);
    AtomicInteger runs = new AtomicInteger();

    Machine written = resource().updateStatus("node-1", s -> {
      if (runs.getAndIncrement() == 0) {
        // Another writer comes between this read and its write.
        run(() -> writeStatusAsAnotherClient("node-1", o -> o.withCondition(theirs)));
      }
      return s.withPhase(MachinePhase.JOINING).withOperations(s.operations().withRepaveCounter(4));
    });

    assertThat(runs).as("the mutation ran again on what was read again").hasValue(2);
    MachineStatus stored = resource().get("node-1").orElseThrow().status();
    assertThat(stored).isEqualTo(written.status());
    assertThat(stored.phase()).isEqualTo(MachinePhase.JOINING);
    assertThat(stored.operations().repaveCounter()).isEqualTo(4);
    assertThat(stored.condition("NodeHealthy"))
        .as("the other writer's field survives")
        .contains(theirs);
  }

  @Test
  void aStatusWriteThatAlwaysMeetsAConflictGivesUpAfterBoundedAttempts() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    AtomicInteger runs = new AtomicInteger();

    assertThatThrownBy(() -> resource().updateStatus("node-1", s -> {
          int n = runs.incrementAndGet();
          run(() -> writeStatusAsAnotherClient(
              "node-1", o -> o.withOperations(o.operations().withRebootCounter(n))));
          return s.withPhase(MachinePhase.FAILED);
        }))
        .isInstanceOfSatisfying(
            MachineResourceException.class,
            e -> assertThat(e.kind()).isEqualTo(MachineResourceException.Kind.CONFLICT));

    assertThat(runs.get()).isBetween(2, 10);
    assertThat(resource().get("node-1").orElseThrow().status().phase())
        .as("nothing of the refused write was stored")
        .isNotEqualTo(MachinePhase.FAILED);
  }

  @Test
  void aMutationThatChangesNothingWritesNothing() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    String before = resource().get("node-1").orElseThrow().resourceVersion();

    Machine answer = resource().updateStatus("node-1", s -> s);

    assertThat(answer.resourceVersion()).isEqualTo(before);
    assertThat(resource().get("node-1").orElseThrow().resourceVersion()).isEqualTo(before);
  }

  @Test
  void theStatusOfAMissingMachineCannotBeWritten() throws Exception {
    assertThatThrownBy(
            () -> resource().updateStatus("node-1", s -> s.withPhase(MachinePhase.READY)))
        .isInstanceOfSatisfying(MachineResourceException.class, e -> {
          assertThat(e.kind()).isEqualTo(MachineResourceException.Kind.NOT_FOUND);
          assertThat(e.machine()).isEqualTo("node-1");
        });
  }

  @Test
  void aStatusWriteArrivesAtAWatchAsAModification() throws Exception {
    putAsAnotherClient("node-1", SPEC);
    Events events = watch("node-1");
    events.next(e -> e.kind() == MachineEvent.Kind.ADDED);

    resource().updateStatus("node-1", s -> s.withPhase(MachinePhase.READY));

    assertThat(events
            .next(e -> e.kind() == MachineEvent.Kind.MODIFIED)
            .machine()
            .status()
            .phase())
        .isEqualTo(MachinePhase.READY);
  }

  // ---- a cluster without the CRD ----

  @Test
  void aClusterWithoutTheMachineTypeIsItsOwnClearError() throws Exception {
    MachineResource resource = resourceWithoutMachineType();

    for (ThrowingRunnable call : List.<ThrowingRunnable>of(
        () -> resource.get("node-1"),
        () -> resource.create("node-1", SPEC),
        () -> resource.watch("node-1", e -> {}).close(),
        () -> resource.updateStatus("node-1", s -> s.withPhase(MachinePhase.READY)))) {
      assertThatThrownBy(call::run)
          .isInstanceOfSatisfying(
              MachineResourceException.class,
              e -> assertThat(e.kind())
                  .as("kind of: %s", e.getMessage())
                  .isEqualTo(MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE));
    }
  }

  // ---- helpers ----

  private static UnaryOperator<MachineSpec> repave(long counter) {
    return s -> s.withOperations(s.operations().withRepaveCounter(counter));
  }

  private static long repaveCounter(MachineEvent e) {
    return e.machine().spec().operations().repaveCounter();
  }

  private static MachineCondition pending() {
    return new MachineCondition(
        MachineCondition.REPAVED, MachineCondition.Status.FALSE, "Pending", "repave 1 running", T0);
  }

  private static void run(ThrowingRunnable r) {
    try {
      r.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A watch of {@code name} (which exists) that has been seen to carry a change, so its connection
   * is established before a test loses it.
   */
  private Events watchThatIsLive(String name) throws Exception {
    Events events = watch(name);
    events.next(e -> e.kind() == MachineEvent.Kind.ADDED);
    updateSpecAsAnotherClient(name, s -> s.withOperations(s.operations().withRebootCounter(1)));
    events.next(e -> e.machine().spec().operations().rebootCounter() == 1);
    return events;
  }

  private Events watch(String name) throws Exception {
    BlockingQueue<MachineEvent> queue = new LinkedBlockingQueue<>();
    MachineWatch watch = resource().watch(name, queue::add);
    watches.add(watch);
    return new Events(queue, watch);
  }

  /** What a watch delivered, taken in order. */
  private static final class Events {
    private final BlockingQueue<MachineEvent> queue;
    private final MachineWatch watch;

    private Events(BlockingQueue<MachineEvent> queue, MachineWatch watch) {
      this.queue = queue;
      this.watch = watch;
    }

    /** The next event that matches, skipping the others (periodic resyncs among them). */
    MachineEvent next(Predicate<MachineEvent> wanted) throws InterruptedException {
      long deadline = System.nanoTime() + EVENT_WAIT.toNanos();
      List<MachineEvent> skipped = new ArrayList<>();
      while (true) {
        long left = deadline - System.nanoTime();
        MachineEvent e = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
        if (e == null) {
          throw new AssertionError(
              "no matching event within " + EVENT_WAIT + "; skipped " + skipped);
        }
        if (wanted.test(e)) {
          return e;
        }
        skipped.add(e);
      }
    }
  }
}
