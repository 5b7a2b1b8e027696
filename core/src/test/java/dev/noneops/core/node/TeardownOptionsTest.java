package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TeardownOptionsTest {

  @Test
  void lazyUnmountIsOffUnlessAskedFor() {
    assertThat(TeardownOptions.defaults().lazyUnmount()).isFalse();
    assertThat(TeardownOptions.defaults().withLazyUnmount(true).lazyUnmount()).isTrue();
  }

  @Test
  void everyWaitMustBeBoundedByAPositiveDuration() {
    assertThatThrownBy(() -> TeardownOptions.defaults().withUnmountDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unmountDeadline");
    assertThatThrownBy(() -> TeardownOptions.defaults().withProcessDeadline(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("processDeadline");
    assertThatThrownBy(() -> TeardownOptions.defaults().withCgroupDeadline(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("cgroupDeadline");
  }

  @Test
  void withersChangeOnlyTheirSetting() {
    TeardownOptions changed = TeardownOptions.defaults().withUnitStopTimeout(Duration.ofSeconds(5));
    assertThat(changed.unitStopTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(changed.withUnitStopTimeout(TeardownOptions.defaults().unitStopTimeout()))
        .isEqualTo(TeardownOptions.defaults());
  }
}
