package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.noneops.core.archfixture.CoreClassDoingItsOwnIo;
import dev.noneops.core.archfixture.CoreClassSeeingAnAdapter;
import dev.noneops.core.archfixture.CoreFailureOutsideTheRoot;
import dev.noneops.core.node.internal.task.archfixture.TaskReachingUpAndBack;
import dev.noneops.hostfs.archfixture.ClassOfAnotherModuleUsingAnInternalOne;
import dev.noneops.hostfs.files.PosixHostFiles;
import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.CgroupsContract;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fs.archfixture.TestkitClassSeeingCore;
import org.junit.jupiter.api.Test;

/**
 * The rules are not vacuous: deliberately bad classes that live on the test class path, in a core
 * or a testkit package, are reported.
 */
class ArchitectureRulesCatchViolationsTest {
  private final JavaClasses fixtures = new ClassFileImporter()
      .importClasses(
          CoreClassDoingItsOwnIo.class,
          CoreClassSeeingAnAdapter.class,
          CoreFailureOutsideTheRoot.class);

  @Test
  void aCoreClassReadingFilesItselfIsCaught() {
    EvaluationResult result = ArchitectureRules.CORE_DOES_NO_IO_OF_ITS_OWN.evaluate(fixtures);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("CoreClassDoingItsOwnIo") && d.contains("java.nio.file.Files"))
        .anyMatch(d -> d.contains("CoreClassDoingItsOwnIo") && d.contains("System.out"))
        .anyMatch(d -> d.contains("CoreClassDoingItsOwnIo") && d.contains("Thread.sleep"));
  }

  @Test
  void aCoreClassUsingAnAdapterIsCaught() {
    EvaluationResult result = ArchitectureRules.PURE_CODE_SEES_NO_ADAPTER.evaluate(fixtures);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("CoreClassSeeingAnAdapter"));
  }

  @Test
  void aCoreFailureOutsideTheRootIsCaught() {
    EvaluationResult result = ArchitectureRules.CORE_FAILURES_SHARE_ONE_ROOT.evaluate(fixtures);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("CoreFailureOutsideTheRoot"))
        .noneMatch(d -> d.contains("CoreClassDoingItsOwnIo"));
  }

  @Test
  void aCleanCoreClassPasses() {
    JavaClasses clean = new ClassFileImporter().importClasses(dev.noneops.core.layout.Layout.class);

    assertThat(ArchitectureRules.CORE_DOES_NO_IO_OF_ITS_OWN.evaluate(clean).hasViolation())
        .isFalse();
    assertThat(ArchitectureRules.PURE_CODE_SEES_NO_ADAPTER.evaluate(clean).hasViolation())
        .isFalse();
    assertThat(ArchitectureRules.CORE_FAILURES_SHARE_ONE_ROOT
            .evaluate(new ClassFileImporter()
                .importClasses(dev.noneops.core.node.NodeBusyException.class))
            .hasViolation())
        .isFalse();
  }

  @Test
  void aTestkitClassUsingCoreIsCaughtAndTheSimulatedHostPasses() {
    EvaluationResult bad = ArchitectureRules.TESTKIT_SEES_PORTS_AND_THE_JDK_ONLY.evaluate(
        new ClassFileImporter().importClasses(TestkitClassSeeingCore.class));
    EvaluationResult clean = ArchitectureRules.TESTKIT_SEES_PORTS_AND_THE_JDK_ONLY.evaluate(
        new ClassFileImporter().importClasses(SimulatedHost.class));

    assertThat(bad.getFailureReport().getDetails())
        .anyMatch(d ->
            d.contains("TestkitClassSeeingCore") && d.contains("dev.noneops.core.layout.Layout"));
    assertThat(clean.hasViolation()).isFalse();
  }

  @Test
  void theFixturesAndTheContractSuitesAreNotHeldToTheSimulatedHostsRule() {
    EvaluationResult result =
        ArchitectureRules.TESTKIT_SEES_PORTS_AND_THE_JDK_ONLY.evaluate(new ClassFileImporter()
            .importClasses(SimulatedHost.class, SimCli.class, CgroupsContract.class));

    assertThat(result.hasViolation()).isFalse();
  }

  @Test
  void aClassOfAnotherModuleUsingAnInternalPackageIsCaughtAndTheModuleItselfPasses() {
    EvaluationResult bad =
        ArchitectureRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE.evaluate(new ClassFileImporter()
            .importClasses(ClassOfAnotherModuleUsingAnInternalOne.class, IoErrors.class));
    EvaluationResult clean = ArchitectureRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE.evaluate(
        new ClassFileImporter().importClasses(PosixHostFiles.class, IoErrors.class));

    assertThat(bad.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("ClassOfAnotherModuleUsingAnInternalOne")
            && d.contains(
                "module acceptance-tests uses an internal class of module adapter-host-fs"));
    assertThat(clean.hasViolation()).isFalse();
  }

  @Test
  void aFeatureClassUsingALaterFeatureOrTheApiAboveItIsCaught() {
    JavaClasses reaching = new ClassFileImporter().importClasses(TaskReachingUpAndBack.class);

    EvaluationResult line = ArchitectureRules.CORE_NODE_FEATURES_FORM_A_LINE.evaluate(reaching);
    EvaluationResult api =
        ArchitectureRules.FEATURES_NAME_NO_ENTRY_POINT_AND_NO_RESULT.evaluate(reaching);

    assertThat(line.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("task uses upgrade, which comes after it"));
    assertThat(api.getFailureReport().getDetails())
        .anyMatch(d -> d.contains("dev.noneops.core.node.Node"))
        .anyMatch(d -> d.contains("dev.noneops.core.node.NodeStatus"));
  }
}
