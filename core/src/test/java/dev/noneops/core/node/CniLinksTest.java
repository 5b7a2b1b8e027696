package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.render.CniLinks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CniLinksTest {
  private static final Layout LAYOUT = Layout.defaultLayout();

  @Test
  void cniLinksPointThroughCurrent() {
    assertThat(CniLinks.plan(List.of("loopback", "bridge"), LAYOUT))
        .containsExactly(
            Map.entry("bridge", "/opt/unbounded/node/current/libexec/cni/bridge"),
            Map.entry("loopback", "/opt/unbounded/node/current/libexec/cni/loopback"));
    assertThatThrownBy(() -> CniLinks.plan(List.of("../evil"), LAYOUT))
        .hasMessageContaining("../evil");
  }
}
