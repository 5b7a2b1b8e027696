package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.TeardownReport.Action;
import dev.noneops.core.node.TeardownReport.Kept;
import dev.noneops.core.node.TeardownReport.Reason;
import dev.noneops.core.node.TeardownReport.Removed;
import dev.noneops.core.node.internal.render.UnitFiles;
import dev.noneops.core.node.internal.teardown.KeepReason;
import dev.noneops.core.node.internal.teardown.SafeTreeRemover;
import dev.noneops.core.node.internal.teardown.TeardownAction;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeardownReportTest {

  @Test
  void foreignThingsKeptOnPurposeDoNotMakeATeardownIncomplete() {
    TeardownReport report = new TeardownReport(
        List.of(new Removed(Action.UNIT_FILE_REMOVED, "/etc/systemd/system/kubelet.service", "")),
        List.of(
            new Kept(
                Reason.FOREIGN_UNIT,
                "/etc/systemd/system/kubelet.service.d/90-ops.conf",
                "no marker"),
            new Kept(Reason.CHANGED_BY_OTHERS, "/etc/containerd/config.toml", "edited")));
    assertThat(report.complete()).isTrue();
    assertThat(report.blocking()).isEmpty();
  }

  @Test
  void aMountLeftInPlaceMakesItIncomplete() {
    TeardownReport report = new TeardownReport(
        List.of(), List.of(new Kept(Reason.STILL_MOUNTED, "/var/lib/kubelet/pods/x", "EBUSY")));
    assertThat(report.complete()).isFalse();
    assertThat(report.blocking())
        .extracting(Kept::subject)
        .containsExactly("/var/lib/kubelet/pods/x");
  }

  @Test
  void reportsOfConsecutiveStepsConcatenateInOrder() {
    TeardownReport a = new TeardownReport(
        List.of(new Removed(Action.UNIT_STOPPED, "kubelet.service", "")), List.of());
    TeardownReport b = new TeardownReport(
        List.of(new Removed(Action.TREE_REMOVED, "/var/lib/kubelet", "")),
        List.of(new Kept(Reason.FAILED, "/x", "EIO")));
    TeardownReport both = a.plus(b);
    assertThat(both.removed())
        .extracting(Removed::subject)
        .containsExactly("kubelet.service", "/var/lib/kubelet");
    assertThat(both.kept(Reason.FAILED)).hasSize(1);
    assertThat(both.removed(Action.TREE_REMOVED)).hasSize(1);
    assertThat(both.toString()).contains("TREE_REMOVED /var/lib/kubelet", "KEPT /x: FAILED (EIO)");
  }

  @Test
  void everyActionAndReasonTheStepsLogIsOneTheReportNamesWithTheSameEffectOnCompletion() {
    assertThat(Arrays.stream(TeardownAction.values()).map(Enum::name))
        .containsExactlyElementsOf(
            Arrays.stream(Action.values()).map(Enum::name).toList());
    assertThat(Arrays.stream(KeepReason.values()).map(Enum::name))
        .containsExactlyElementsOf(
            Arrays.stream(Reason.values()).map(Enum::name).toList());
    for (KeepReason reason : KeepReason.values()) {
      TeardownReport report = TeardownReport.of(new TeardownLog(
          List.of(new TeardownLog.Removal(TeardownAction.TREE_REMOVED, "/var/lib/kubelet", "")),
          List.of(new TeardownLog.Keep(reason, "/x", "why"))));
      assertThat(report.complete()).as(reason.name()).isEqualTo(!reason.blocksCompletion());
      assertThat(report.kept().get(0).reason().name()).isEqualTo(reason.name());
    }
  }

  @Test
  void isNotEmptyRecognisesEnotemptyAnywhereInTheCauseChain() {
    HostIOException notEmpty = new HostIOException(Errno.ENOTEMPTY, "rmdir", "/opt/unbounded/node");
    assertThat(TeardownSteps.isNotEmpty(notEmpty)).isTrue();
    assertThat(TeardownSteps.isNotEmpty(new IOException("wrapped", notEmpty))).isTrue();
    assertThat(TeardownSteps.isNotEmpty(new HostIOException(Errno.EBUSY, "rmdir", "/x")))
        .isFalse();
    assertThat(TeardownSteps.isNotEmpty(new IOException("directory not empty"))).isFalse();
    assertThat(TeardownSteps.isNotEmpty(null)).isFalse();
  }

  @Test
  void theTreeRemoverRefusesRelativeAndTopLevelRoots() {
    assertThatThrownBy(() -> SafeTreeRemover.requireRemovableRoot(Path.of("var/lib/kubelet")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absolute");
    assertThatThrownBy(() -> SafeTreeRemover.requireRemovableRoot(Path.of("/")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("top-level");
    assertThatThrownBy(() -> SafeTreeRemover.requireRemovableRoot(Path.of("/var/lib/..")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("top-level");
    assertThat(SafeTreeRemover.requireRemovableRoot(Path.of("/var/lib/kubelet/./")))
        .isEqualTo(Path.of("/var/lib/kubelet"));
  }

  @Test
  void unitNamesAreRecognisedByTheirSuffix() {
    assertThat(UnitFiles.isUnitName("kubelet.service")).isTrue();
    assertThat(UnitFiles.isUnitName("kubepods.slice")).isTrue();
    assertThat(UnitFiles.isUnitName("multi-user.target.wants")).isFalse();
    assertThat(UnitFiles.isUnitName(".service")).isFalse();
    assertThat(
            List.of("localdns.service", "aaa.service", "containerd.service", "kubelet.service")
                .stream()
                .sorted(UnitFiles.STOP_ORDER))
        .containsExactly(
            "kubelet.service", "containerd.service", "localdns.service", "aaa.service");
  }
}
