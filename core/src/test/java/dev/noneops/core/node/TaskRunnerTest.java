package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.NoneopsException;
import dev.noneops.core.node.internal.task.Task;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.time.HostClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class TaskRunnerTest {
  private final ManualClock clock = new ManualClock();
  private final List<NodeEvent> events = Collections.synchronizedList(new ArrayList<>());
  private final TaskRunner runner = new TaskRunner(
      LoggerFactory.getLogger(TaskRunnerTest.class), events::add, clock, Runnable::run);

  @Test
  void aTaskReportsStartedAndCompletedWithItsDuration() {
    runner.execute(Task.of("download-kubelet", () -> clock.advance(Duration.ofSeconds(3))));

    assertThat(events)
        .extracting(NodeEvent::task, NodeEvent::kind, NodeEvent::duration)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "download-kubelet", NodeEvent.Kind.STARTED, Duration.ZERO),
            org.assertj.core.groups.Tuple.tuple(
                "download-kubelet", NodeEvent.Kind.COMPLETED, Duration.ofSeconds(3)));
  }

  @Test
  void anUntypedFailureIsWrappedOnceWithItsPathAndReportedWithItsDuration() {
    IOException cause = new IOException("write /etc/x: ENOSPC");
    assertThatThrownBy(() -> runner.execute(Task.of("configure-kubelet", () -> {
          clock.advance(Duration.ofMillis(250));
          throw cause;
        })))
        .isInstanceOf(TaskFailedException.class)
        .hasMessage("write /etc/x: ENOSPC")
        .hasCause(cause)
        .satisfies(
            e -> assertThat(((TaskFailedException) e).failedAt()).contains("configure-kubelet"));

    NodeEvent failed = events.get(events.size() - 1);
    assertThat(failed.kind()).isEqualTo(NodeEvent.Kind.FAILED);
    assertThat(failed.duration()).isEqualTo(Duration.ofMillis(250));
    assertThat(failed.error()).contains("write /etc/x: ENOSPC");
  }

  @Test
  void aTypedFailureIsRethrownItselfWithThePathOfTheTaskWhereItHappened() {
    TypedFailure typed = new TypedFailure("kubelet.service did not become ready");
    Task start =
        runner.serial("start", Task.of("start-kubelet", () -> {}), Task.of("wait-kubelet", () -> {
          throw typed;
        }));

    assertThatThrownBy(
            () -> runner.execute(Task.of("upgrade-start-target", () -> runner.execute(start))))
        .isSameAs(typed)
        .hasMessage("kubelet.service did not become ready")
        .hasNoCause();
    assertThat(typed.taskPath()).containsExactly("upgrade-start-target", "start", "wait-kubelet");
    assertThat(typed.failedAt()).contains("upgrade-start-target › start › wait-kubelet");
    assertThat(typed.operatorMessage())
        .isEqualTo(
            "failed at upgrade-start-target › start › wait-kubelet: kubelet.service did not become ready");
  }

  @Test
  void aFailureIsOneFailedEventAtItsTaskAndTheTasksAroundItEndAbortedWithoutItsMessage() {
    runner.execute(Task.of("configure", () -> {}));
    Task start = runner.serial("start", Task.of("wait-kubelet", () -> {
      throw new TypedFailure("kubelet.service did not become ready");
    }));

    assertThatThrownBy(
        () -> runner.execute(Task.of("upgrade-start-target", () -> runner.execute(start))));

    assertThat(events)
        .filteredOn(e -> e.kind() == NodeEvent.Kind.FAILED)
        .extracting(NodeEvent::task, NodeEvent::error)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(
            "wait-kubelet", java.util.Optional.of("kubelet.service did not become ready")));
    assertThat(events)
        .filteredOn(e -> e.kind() == NodeEvent.Kind.ABORTED)
        .allSatisfy(e -> {
          assertThat(e.error()).isEmpty();
          assertThat(e.details())
              .containsEntry("failedAt", "upgrade-start-target › start › wait-kubelet")
              .containsEntry("failedTask", "wait-kubelet");
        })
        .extracting(NodeEvent::task)
        .containsExactly("start", "upgrade-start-target");
  }

  @Test
  void serialCarriesItsNameAndStopsAtTheFirstFailure() {
    List<String> ran = new ArrayList<>();
    Task serial = runner.serial(
        "configure",
        Task.of("a", () -> ran.add("a")),
        Task.of("b", () -> {
          throw new IllegalStateException("kubelet.service: start failed");
        }),
        Task.of("c", () -> ran.add("c")));

    assertThat(serial.name()).isEqualTo("configure");
    assertThatThrownBy(() -> runner.execute(serial))
        .isInstanceOf(TaskFailedException.class)
        .hasMessage("kubelet.service: start failed")
        .satisfies(
            e -> assertThat(((TaskFailedException) e).taskPath()).containsExactly("configure", "b"))
        .satisfies(e -> assertThat(((TaskFailedException) e).failedTask()).isEqualTo("b"));
    assertThat(ran).containsExactly("a");
  }

  @Test
  void aTaskReturnsItsValue() {
    int answer = runner.call("count-units", () -> 3);

    assertThat(answer).isEqualTo(3);
    assertThat(events)
        .extracting(NodeEvent::task, NodeEvent::kind)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("count-units", NodeEvent.Kind.STARTED),
            org.assertj.core.groups.Tuple.tuple("count-units", NodeEvent.Kind.COMPLETED));
  }

  @Test
  void parallelOnTheCallingThreadRunsInOrderAndSkipsWhatFollowsAFailure() {
    List<String> ran = new ArrayList<>();
    Task parallel = runner.parallel(
        "download",
        Task.of("x", () -> ran.add("x")),
        Task.of("y", () -> {
          throw new IOException("boom");
        }),
        Task.of("z", () -> ran.add("z")));

    assertThatThrownBy(() -> runner.execute(parallel))
        .hasMessage("boom")
        .satisfies(e -> assertThat(((NoneopsException) e).failedAt()).contains("download › y"));
    assertThat(ran).containsExactly("x");
  }

  @Test
  void parallelOnAPoolRunsChildrenConcurrently() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      TaskRunner pooled =
          new TaskRunner(LoggerFactory.getLogger(TaskRunnerTest.class), events::add, clock, pool);
      CountDownLatch allStarted = new CountDownLatch(3);
      List<Task> children = new ArrayList<>();
      for (String name : List.of("k1", "k2", "k3")) {
        children.add(Task.of(name, () -> {
          allStarted.countDown();
          if (!allStarted.await(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("children did not run at the same time");
          }
        }));
      }
      pooled.execute(pooled.parallel("download", children));
      assertThat(events).filteredOn(e -> e.kind() == NodeEvent.Kind.COMPLETED).hasSize(4);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void parallelOnAPoolInterruptsSiblingsOfAFailureAndReturnsOnlyWhenTheyHaveEnded()
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      TaskRunner pooled =
          new TaskRunner(LoggerFactory.getLogger(TaskRunnerTest.class), events::add, clock, pool);
      CountDownLatch slowStarted = new CountDownLatch(1);
      AtomicBoolean slowEnded = new AtomicBoolean();
      AtomicBoolean slowInterrupted = new AtomicBoolean();
      Task slow = Task.of("slow", () -> {
        slowStarted.countDown();
        try {
          Thread.sleep(10_000);
        } catch (InterruptedException e) {
          slowInterrupted.set(true);
          Thread.sleep(200); // still cleaning up when its sibling's failure is reported
          throw e;
        } finally {
          slowEnded.set(true);
        }
      });
      Task failing = Task.of("failing", () -> {
        assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
        throw new IOException("EIO");
      });

      assertThatThrownBy(() -> pooled.execute(pooled.parallel("download", slow, failing)))
          .hasMessage("EIO")
          .satisfies(e -> assertThat(((NoneopsException) e).failedAt())
              .as("the path crosses to the pool's thread")
              .contains("download › failing"));

      assertThat(slowInterrupted).isTrue();
      assertThat(slowEnded)
          .as("the composite waited for the interrupted sibling to end")
          .isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aChildNotYetStartedWhenASiblingFailsNeverStarts() throws Exception {
    List<Runnable> queued = Collections.synchronizedList(new ArrayList<>());
    Executor later = queued::add;
    TaskRunner deferred =
        new TaskRunner(LoggerFactory.getLogger(TaskRunnerTest.class), events::add, clock, later);
    AtomicBoolean secondRan = new AtomicBoolean();
    Task first = Task.of("first", () -> {
      throw new IOException("EIO");
    });
    Task second = Task.of("second", () -> secondRan.set(true));
    Thread runner = new Thread(() -> assertThatThrownBy(
            () -> deferred.execute(deferred.parallel("download", first, second)))
        .hasMessage("EIO"));
    runner.start();
    while (queued.size() < 2 && runner.isAlive()) {
      Thread.sleep(5);
    }
    queued.get(0).run();
    queued.get(1).run();
    runner.join(5_000);

    assertThat(runner.isAlive()).isFalse();
    assertThat(secondRan).isFalse();
  }

  @Test
  void aTaskNeedsAName() {
    assertThatThrownBy(() -> Task.of(" ", () -> {})).hasMessageContaining("name");
  }

  /** A typed error, to show it is rethrown itself. */
  static final class TypedFailure extends NoneopsException {
    private static final long serialVersionUID = 1L;

    TypedFailure(String m) {
      super(m);
    }
  }

  static final class ManualClock implements HostClock {
    private long nanos;

    void advance(Duration d) {
      nanos += d.toNanos();
    }

    @Override
    public Instant now() {
      return Instant.EPOCH.plusNanos(nanos);
    }

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(Duration duration) {
      advance(duration);
    }
  }
}
