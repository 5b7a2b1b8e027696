package dev.noneops.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {
  @Test
  void theWaitsDoubleFromATenthOfASecondToFiveSecondsAndStayThere() {
    ReconnectBackoff backoff = new ReconnectBackoff();
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      millis.add(backoff.next().toMillis());
    }
    assertThat(millis).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L);
    assertThat(ReconnectBackoff.MOST).isEqualTo(Duration.ofSeconds(5));
  }
}
