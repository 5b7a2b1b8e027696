package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DownloadThreadsTest {

  @Test
  void tasksRunOnDaemonThreadsAtMostTheBoundAtOnce() throws InterruptedException {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    List<Boolean> daemons = new CopyOnWriteArrayList<>();
    CountDownLatch done = new CountDownLatch(12);
    try (DownloadThreads threads = new DownloadThreads(3)) {
      for (int i = 0; i < 12; i++) {
        threads.execute(() -> {
          peak.accumulateAndGet(running.incrementAndGet(), Math::max);
          daemons.add(Thread.currentThread().isDaemon());
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          running.decrementAndGet();
          done.countDown();
        });
      }
      assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(peak.get()).isBetween(2, 3);
    assertThat(daemons).hasSize(12).containsOnly(true);
  }

  @Test
  void closingInterruptsRunningTasksAndRefusesNewOnes() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    DownloadThreads threads = new DownloadThreads(1);
    threads.execute(() -> {
      started.countDown();
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
    });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    threads.close();

    assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> threads.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class);
  }

  @Test
  void aBoundOutsideOneToSixtyFourIsRefused() {
    assertThatThrownBy(() -> new DownloadThreads(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1..64");
  }
}
