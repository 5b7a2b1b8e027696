package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.testkit.gate.Calls;
import org.junit.jupiter.api.Test;

/**
 * A read of the node's state that fails is a {@link NodeException} a caller catches with every
 * other failure of the node, naming what was read and the error, not a checked {@code
 * IOException} beside it.
 */
class ReadsThatFailTest {

  @Test
  void statusThatCannotReadTheLayoutNamesStatusAndTheError() throws Exception {
    SimNode node = SimNode.running();
    node.host.faults().failEvery(Calls.under(node.layout.root()), Errno.EIO);

    assertThatThrownBy(
            () -> new Node(Params.builder(node.host.ports()).build()).inspect().status())
        .isInstanceOf(NodeException.class)
        .hasMessageContaining("status: cannot read the node's state")
        .hasMessageContaining("EIO");
  }

  @Test
  void presentThatCannotReadTheHostNamesTheError() throws Exception {
    SimNode node = SimNode.running();
    node.host.faults().failEvery(Calls.any(), Errno.EIO);

    assertThatThrownBy(() -> node.teardown().present())
        .isInstanceOf(NodeException.class)
        .hasMessageContaining("present: cannot read the host")
        .hasMessageContaining("EIO");
  }
}
