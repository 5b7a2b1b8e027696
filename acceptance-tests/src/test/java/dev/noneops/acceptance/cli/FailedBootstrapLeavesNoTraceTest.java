package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Params;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A bootstrap whose artifacts cannot be verified installs nothing, and it leaves nothing either:
 * the version is downloaded and checked before anything outside the layout changes, and the
 * layout it created for that goes again.
 */
class FailedBootstrapLeavesNoTraceTest {

  @Test
  void aBootstrapRefusingATamperedKubeletLeavesTheHostAsItWas() throws Exception {
    SimulatedHost host = SimulatedHost.create();
    SimCli cli = new SimCli(host);
    String json = ConfigJson.of("1.31.4").json();
    cli.configure(SimCli.CONFIG, json);
    AgentConfig config =
        AgentConfigParser.parseAndValidate(json.getBytes(StandardCharsets.UTF_8), "amd64");
    Artifact kubelet = new Node(Params.builder(host.ports()).config(config).build())
        .goalState().rootFs().artifacts().stream()
            .filter(a -> a.name().equals("kubelet"))
            .findFirst()
            .orElseThrow();
    host.artifacts()
        .publish(kubelet.url(), "#!/bin/sh\necho tampered\n".getBytes(StandardCharsets.UTF_8));
    FileTreeSnapshot before = host.snapshot();

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(boot.err()).contains(kubelet.url().toString());
    assertThat(host.snapshot().diff(before))
        .as("nothing installed, nothing left: no layout, no module file, no unit")
        .isEmpty();
    assertThat(host.kernel().loadedModules()).isEmpty();
    assertThat(cli.run("present").out().strip()).isEqualTo("absent");
  }
}
