package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.time.HostClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The {@link HostClock} contract (light): monotonic readings, and a sleep lets that much time pass. */
public abstract class HostClockContract {

  protected abstract HostClock clock();

  @Test
  void theMonotonicClockNeverGoesBack() {
    long last = clock().nanoTime();
    for (int i = 0; i < 1000; i++) {
      long now = clock().nanoTime();
      assertThat(now).isGreaterThanOrEqualTo(last);
      last = now;
    }
  }

  @Test
  void aSleepLetsAtLeastThatMuchTimePass() throws InterruptedException {
    Duration nap = Duration.ofMillis(50);
    long startNanos = clock().nanoTime();
    Instant start = clock().now();
    clock().sleep(nap);
    assertThat(clock().nanoTime() - startNanos).isGreaterThanOrEqualTo(nap.toNanos());
    assertThat(Duration.between(start, clock().now())).isGreaterThanOrEqualTo(nap.minusMillis(1));
  }

  @Test
  void aZeroSleepReturns() throws InterruptedException {
    clock().sleep(Duration.ZERO);
    assertThat(clock().now()).isNotNull();
  }
}
