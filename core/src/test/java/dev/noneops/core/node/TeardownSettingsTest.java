package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.Teardown.TeardownSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TeardownSettingsTest {

  @Test
  void lazyUnmountIsOffUnlessAskedFor() {
    assertThat(TeardownSettings.defaults().lazyUnmount()).isFalse();
    assertThat(TeardownSettings.defaults().withLazyUnmount(true).lazyUnmount()).isTrue();
  }

  @Test
  void everyWaitMustBeBoundedByAPositiveDuration() {
    assertThatThrownBy(() -> TeardownSettings.defaults().withUnmountDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unmountDeadline");
    assertThatThrownBy(
            () -> TeardownSettings.defaults().withProcessDeadline(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("processDeadline");
    assertThatThrownBy(() -> TeardownSettings.defaults().withCgroupDeadline(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("cgroupDeadline");
  }

  @Test
  void withersChangeOnlyTheirSetting() {
    TeardownSettings changed =
        TeardownSettings.defaults().withUnitStopTimeout(Duration.ofSeconds(5));
    assertThat(changed.unitStopTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(changed.withUnitStopTimeout(TeardownSettings.defaults().unitStopTimeout()))
        .isEqualTo(TeardownSettings.defaults());
  }
}
