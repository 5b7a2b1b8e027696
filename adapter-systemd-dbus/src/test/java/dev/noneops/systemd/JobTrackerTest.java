package dev.noneops.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JobTrackerTest {
  private static final String JOB = "/org/freedesktop/systemd1/job/7";
  private final JobTracker tracker = new JobTracker();

  @Test
  void aSignalThatCameBeforeTheWaiterIsFoundAtOnce() throws Exception {
    tracker.jobRemoved(JOB, "done");

    assertThat(tracker.await(JOB, Deadline.after(Duration.ZERO))).contains("done");
    assertThat(tracker.unclaimedCount()).isZero();
  }

  @Test
  void aSignalThatComesWhileWaitingWakesTheWaiter() throws Exception {
    CountDownLatch registered = new CountDownLatch(1);
    CompletableFuture<Optional<String>> waiting = CompletableFuture.supplyAsync(() -> {
      registered.countDown();
      try {
        return tracker.await(JOB, Deadline.after(Duration.ofSeconds(10)));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    registered.await();
    Thread.sleep(50);

    tracker.jobRemoved(JOB, "failed");

    assertThat(waiting).succeedsWithin(Duration.ofSeconds(5)).isEqualTo(Optional.of("failed"));
  }

  @Test
  void otherJobsDoNotWakeTheWaiterAndTheDeadlineEndsTheWait() throws Exception {
    tracker.jobRemoved("/org/freedesktop/systemd1/job/8", "done");

    long started = System.nanoTime();
    Optional<String> result = tracker.await(JOB, Deadline.after(Duration.ofMillis(200)));

    assertThat(result).isEmpty();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(190L);
  }

  @Test
  void unclaimedSignalsAreBoundedOldestFirst() {
    for (int i = 0; i < JobTracker.UNCLAIMED_CAPACITY + 10; i++) {
      tracker.jobRemoved("/org/freedesktop/systemd1/job/" + i, "done");
    }

    assertThat(tracker.unclaimedCount()).isEqualTo(JobTracker.UNCLAIMED_CAPACITY);
  }

  @Test
  void failAllWakesWaitersAndFailsLaterWaits() throws Exception {
    SystemdException broken = new SystemdException(Kind.UNREACHABLE, "", "bus gone");
    CompletableFuture<Optional<String>> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return tracker.await(JOB, Deadline.after(Duration.ofSeconds(30)));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(100);

    tracker.failAll(broken);

    assertThat(waiting)
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withCause(broken);
    assertThatThrownBy(() -> tracker.await(JOB, Deadline.after(Duration.ofSeconds(1))))
        .isSameAs(broken);
  }

  @Test
  void onceReconnectedWaitsWorkAgain() throws Exception {
    tracker.failAll(new SystemdException(Kind.UNREACHABLE, "", "bus gone"));

    tracker.reconnected();
    tracker.jobRemoved(JOB, "done");

    assertThat(tracker.await(JOB, Deadline.after(Duration.ofSeconds(1)))).contains("done");
  }
}
