package dev.noneops.acceptance.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.node.ClusterCheck;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.Params;
import dev.noneops.core.node.PreflightFailedException;
import dev.noneops.core.node.PreflightReport.Check;
import dev.noneops.core.node.PreflightReport.Verdict;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.machine.SimClusterApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The version skew policy in preflight and bootstrap, with cluster credentials: a kubelet newer
 * than the API server, or more than three minor versions older, fails the check and so stops a
 * bootstrap before it changes anything; the override makes it a warning; an API server that
 * cannot be reached is a warning.
 */
class VersionSkewPreflightTest {
  private static final AgentConfig CONFIG = SimNode.config("1.31.2", "2.0.4", "blue");

  private final SimNode lab = new SimNode();
  private final SimClusterApi cluster = new SimClusterApi(() -> lab.host.clock().now());

  @BeforeEach
  void publish() {
    lab.publish(CONFIG);
  }

  private Node node(boolean ignoreSkew) {
    return lab.node(Params.builder(lab.host.ports())
        .config(CONFIG)
        .cluster(ClusterCheck.of(cluster.client()).ignoringVersionSkew(ignoreSkew)));
  }

  private Check skewCheck(boolean ignoreSkew) {
    return node(ignoreSkew).preflight().check("version-skew").orElseThrow();
  }

  @Test
  void aKubeletTheApiServerSupportsPasses() {
    cluster.serverVersion("v1.32.1");

    assertThat(skewCheck(false).verdict()).isEqualTo(Verdict.OK);
    assertThat(skewCheck(false).detail()).isEqualTo("kubelet v1.31.2, API server v1.32.1");
  }

  @Test
  void aKubeletNewerThanTheApiServerFailsAndStopsABootstrapWithTheHostByteIdentical() {
    cluster.serverVersion("v1.30.4");
    FileTreeSnapshot before = lab.host.snapshot();

    PreflightFailedException refused =
        catchThrowableOfType(PreflightFailedException.class, () -> node(false).bootstrap(true));

    assertThat(refused.failedChecks()).containsExactly("version-skew");
    assertThat(refused.getMessage())
        .contains("kubelet v1.31.2 is newer than the API server v1.30.4")
        .contains("version skew policy");
    assertThat(lab.host.snapshot()).as("the host tree is byte-identical").isEqualTo(before);
  }

  @Test
  void aKubeletMoreThanThreeMinorVersionsOlderFailsAndTheOverrideMakesItAWarning() {
    cluster.serverVersion("v1.35.0");

    assertThat(skewCheck(false).verdict()).isEqualTo(Verdict.FAIL);
    assertThat(skewCheck(false).remedy()).contains("--ignore-version-skew");
    assertThat(skewCheck(true).verdict()).isEqualTo(Verdict.WARN);
    assertThat(skewCheck(true).detail()).contains("overridden");
  }

  @Test
  void anApiServerThatCannotBeReachedIsAWarningNotARefusal() {
    cluster.unreachable(true);

    Check check = skewCheck(false);
    assertThat(check.verdict()).isEqualTo(Verdict.WARN);
    assertThat(check.detail()).contains("the API server cannot be reached");
    assertThat(node(false).preflight().passed()).isTrue();
  }
}
