package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.TeardownResult.Kept;
import dev.noneops.core.node.TeardownResult.Removed;
import dev.noneops.core.node.internal.render.UnitFiles;
import dev.noneops.core.node.internal.teardown.SafeTreeRemover;
import dev.noneops.core.node.internal.teardown.TeardownLog;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeardownResultTest {

  @Test
  void foreignThingsKeptOnPurposeDoNotMakeATeardownIncomplete() {
    TeardownResult report = new TeardownResult(
        List.of(new Removed(
            TeardownAction.UNIT_FILE_REMOVED, "/etc/systemd/system/kubelet.service", "")),
        List.of(
            new Kept(
                KeepReason.FOREIGN_UNIT,
                "/etc/systemd/system/kubelet.service.d/90-ops.conf",
                "no marker"),
            new Kept(KeepReason.CHANGED_BY_OTHERS, "/etc/containerd/config.toml", "edited")));
    assertThat(report.complete()).isTrue();
    assertThat(report.blocking()).isEmpty();
  }

  @Test
  void aMountLeftInPlaceMakesItIncomplete() {
    TeardownResult report = new TeardownResult(
        List.of(), List.of(new Kept(KeepReason.STILL_MOUNTED, "/var/lib/kubelet/pods/x", "EBUSY")));
    assertThat(report.complete()).isFalse();
    assertThat(report.blocking())
        .extracting(Kept::subject)
        .containsExactly("/var/lib/kubelet/pods/x");
  }

  @Test
  void reportsOfConsecutiveStepsConcatenateInOrder() {
    TeardownResult a = new TeardownResult(
        List.of(new Removed(TeardownAction.UNIT_STOPPED, "kubelet.service", "")), List.of());
    TeardownResult b = new TeardownResult(
        List.of(new Removed(TeardownAction.TREE_REMOVED, "/var/lib/kubelet", "")),
        List.of(new Kept(KeepReason.FAILED, "/x", "EIO")));
    TeardownResult both = a.plus(b);
    assertThat(both.removed())
        .extracting(Removed::subject)
        .containsExactly("kubelet.service", "/var/lib/kubelet");
    assertThat(both.kept(KeepReason.FAILED)).hasSize(1);
    assertThat(both.removed(TeardownAction.TREE_REMOVED)).hasSize(1);
    assertThat(both.toString()).contains("TREE_REMOVED /var/lib/kubelet", "KEPT /x: FAILED (EIO)");
  }

  @Test
  void theReportOfWhatTheStepsLoggedKeepsEveryItemAndIsIncompleteForABlockingReason() {
    for (KeepReason reason : KeepReason.values()) {
      TeardownResult report = TeardownResult.of(new TeardownLog(
          List.of(new TeardownLog.Removal(TeardownAction.TREE_REMOVED, "/var/lib/kubelet", "")),
          List.of(new TeardownLog.Keep(reason, "/x", "why"))));
      assertThat(report.complete()).as(reason.name()).isEqualTo(!reason.blocksCompletion());
      assertThat(report.kept()).containsExactly(new Kept(reason, "/x", "why"));
      assertThat(report.removed())
          .containsExactly(new Removed(TeardownAction.TREE_REMOVED, "/var/lib/kubelet", ""));
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
