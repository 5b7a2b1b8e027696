package dev.noneops.hostfs.download;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private final RetryPolicy policy =
      new RetryPolicy(6, Duration.ofMillis(500), Duration.ofSeconds(3));

  @Test
  void doublesTheWaitAfterEachFailureUpToTheCap() {
    assertThat(policy.backoffAfter(1, Duration.ZERO)).isEqualTo(Duration.ofMillis(500));
    assertThat(policy.backoffAfter(2, Duration.ZERO)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoffAfter(3, Duration.ZERO)).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.backoffAfter(4, Duration.ZERO)).isEqualTo(Duration.ofSeconds(3));
    assertThat(policy.backoffAfter(60, Duration.ZERO)).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void waitsAtLeastWhatTheServerAskedButNeverBeyondTheCap() {
    assertThat(policy.backoffAfter(1, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.backoffAfter(1, Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void rejectsPoliciesThatCannotWork() {
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("backoffs");
  }
}
