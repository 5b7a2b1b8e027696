package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.TeardownResult.Kept;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A teardown on a host without a cgroup v2 hierarchy at hand (none mounted, or none given to a
 * host whose proc root was moved) leaves every cgroup alone and says so in its report.
 */
class TeardownWithoutACgroupHierarchyTest {

  @Test
  void thePodCgroupsAreSkippedAndEachPodHierarchyIsReportedAsSkipped() throws Exception {
    SimNode node = SimNode.running();
    node.host.processes().setCgroupsAvailable(false);

    TeardownResult report = node.teardown()
        .stop()
        .plus(node.teardown().removeConfig())
        .plus(node.teardown().destroy());

    assertThat(report.removed(TeardownAction.CGROUP_KILLED)).isEmpty();
    assertThat(report.removed(TeardownAction.CGROUP_REMOVED)).isEmpty();
    List<Kept> skipped = report.kept(KeepReason.NO_CGROUP_HIERARCHY);
    assertThat(skipped).extracting(Kept::subject).containsExactly("/kubepods.slice", "/kubepods");
    assertThat(skipped).allSatisfy(k -> assertThat(k.detail()).contains("no cgroup v2 hierarchy"));
    assertThat(KeepReason.NO_CGROUP_HIERARCHY.blocksCompletion()).isFalse();
    node.host.processes().setCgroupsAvailable(true);
    assertThat(node.host.processes().cgroupExists("/kubepods.slice"))
        .as("the hierarchy nobody looked at is still there")
        .isTrue();
  }
}
