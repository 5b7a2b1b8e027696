package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.LocalDnsSpec;
import dev.noneops.core.node.internal.render.CorefileRenderer;
import dev.noneops.testkit.fixtures.standins.CoreDnsStandIn;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CoreDNS stand-in of the system tests listens where the Corefile the node renders says. */
class CorefileForCoreDnsStandInTest {

  @Test
  void coreDnsStandInListensWhereTheNodesCorefileSays() {
    byte[] corefile = CorefileRenderer.render(new LocalDnsSpec(
        "/opt/unbounded/node/current/bin/coredns",
        "localdns0",
        "169.254.20.10",
        53,
        "cluster.local",
        "10.96.0.10",
        List.of("192.0.2.53")));

    CoreDnsStandIn.Listen listen =
        CoreDnsStandIn.Listen.fromCorefile(new String(corefile, StandardCharsets.UTF_8));

    assertThat(listen).isEqualTo(new CoreDnsStandIn.Listen("169.254.20.10", 53));
  }
}
