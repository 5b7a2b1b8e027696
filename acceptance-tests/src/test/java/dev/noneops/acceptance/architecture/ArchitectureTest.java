package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every production class of every module obeys the architecture rules. */
class ArchitectureTest {
  private static JavaClasses production;

  @BeforeAll
  static void importProductionClasses() {
    production = new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/"))
        .importPackages("dev.noneops");
  }

  static Stream<ArchRule> rules() {
    return Stream.of(
        ArchitectureRules.PURE_CODE_SEES_NO_ADAPTER,
        ArchitectureRules.PURE_CODE_SEES_NO_INFRASTRUCTURE_LIBRARY,
        ArchitectureRules.PORTS_DEPEND_ON_THE_JDK_ONLY,
        ArchitectureRules.CORE_DOES_NO_IO_OF_ITS_OWN,
        ArchitectureRules.ADAPTERS_DEPEND_ON_PORTS_ONLY,
        ArchitectureRules.ADAPTERS_DO_NOT_SEE_EACH_OTHER_SYSTEMD,
        ArchitectureRules.ADAPTERS_DO_NOT_SEE_EACH_OTHER_HOSTFS,
        ArchitectureRules.KUBERNETES_ADAPTER_SEES_PORTS_AND_FABRIC8_ONLY,
        ArchitectureRules.METRICS_ADAPTER_SEES_PORTS_AND_THE_PROMETHEUS_CLIENT_ONLY,
        ArchitectureRules.ONLY_WIRING_SEES_THE_ADAPTERS,
        ArchitectureRules.CORE_FAILURES_SHARE_ONE_ROOT,
        ArchitectureRules.TESTKIT_SEES_PORTS_AND_THE_JDK_ONLY,
        ArchitectureRules.CONTRACTS_SEE_PORTS_AND_THE_TEST_FRAMEWORK_ONLY,
        ArchitectureRules.THE_PRODUCT_SEES_NO_TESTKIT,
        ArchitectureRules.NOTHING_BUT_THE_DEMO_SEES_THE_DEMO,
        ArchitectureRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE,
        ArchitectureRules.NO_CYCLES_BETWEEN_MODULES,
        ArchitectureRules.NO_CYCLES_INSIDE_CORE,
        ArchitectureRules.CORE_NODE_FEATURES_FORM_A_LINE,
        ArchitectureRules.FEATURES_NAME_NO_ENTRY_POINT_AND_NO_RESULT);
  }

  @ParameterizedTest
  @MethodSource("rules")
  void productionCodeObeys(ArchRule rule) {
    rule.check(production);
  }

  @org.junit.jupiter.api.Test
  void theImportSeesEveryModuleSoNoRulePassesVacuously() {
    assertThat(production.stream().map(c -> c.getPackageName().split("\\.")[2]).distinct())
        .contains(
            "ports",
            "core",
            "systemd",
            "hostfs",
            "kubernetes",
            "metrics",
            "cli",
            "testkit",
            "demo");
  }
}
