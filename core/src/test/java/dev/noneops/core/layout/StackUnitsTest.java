package dev.noneops.core.layout;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The stack's units are one ordered list: they start LocalDNS first and stop in the reverse order. */
class StackUnitsTest {

  @Test
  void theStackStartsLocalDnsThenContainerdThenKubeletAndStopsInTheReverseOrder() {
    assertThat(HostPaths.STACK_UNITS)
        .containsExactly(
            HostPaths.LOCALDNS_UNIT, HostPaths.CONTAINERD_UNIT, HostPaths.KUBELET_UNIT);
    assertThat(HostPaths.STACK_STOP_ORDER)
        .containsExactly(
            HostPaths.KUBELET_UNIT, HostPaths.CONTAINERD_UNIT, HostPaths.LOCALDNS_UNIT);
  }
}
