package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.noneops.acceptance.architecture.leakfixture.LeakingApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The API of {@code ports} and {@code core} cannot leak: no public or protected member of an
 * exported package names a type a caller cannot name. The exported packages are the ones the
 * modules' {@code module-info.java} export.
 */
class ApiLeaksTest {
  /** The packages {@code core}'s and {@code ports}' module declarations export. */
  static final Set<String> EXPORTED_CORE = Set.of(
      "dev.noneops.core",
      "dev.noneops.core.config",
      "dev.noneops.core.daemon",
      "dev.noneops.core.goalstate",
      "dev.noneops.core.layout",
      "dev.noneops.core.node");

  private static boolean exported(String pkg) {
    return pkg.startsWith("dev.noneops.ports") || EXPORTED_CORE.contains(pkg);
  }

  private static boolean own(String pkg) {
    return pkg.startsWith("dev.noneops.");
  }

  @Test
  void noPublicMemberOfCoreOrPortsNamesATypeACallerCannotName() {
    List<Class<?>> types = new ArrayList<>();
    new ClassFileImporter()
        .withImportOption(location -> !location.contains("/test-classes/"))
        .importPackages("dev.noneops.core", "dev.noneops.ports")
        .forEach(c -> types.add(c.reflect()));
    assertThat(types).hasSizeGreaterThan(100);

    assertThat(new ApiLeaks(ApiLeaksTest::own, ApiLeaksTest::exported).in(types))
        .isEmpty();
  }

  @Test
  void aMemberNamingAPackagePrivateOrAnInternalTypeIsCaught() {
    Set<String> leaks = new ApiLeaks(ApiLeaksTest::own, pkg -> pkg.endsWith(".leakfixture"))
        .in(List.of(LeakingApi.class));

    assertThat(leaks)
        .anyMatch(l -> l.contains("LeakingApi.hidden(…)") && l.contains("Hidden (not public)"))
        .anyMatch(l -> l.contains("LeakingApi.internals(…)")
            && l.contains("internal.task.Task (not exported)"))
        .noneMatch(l -> l.contains("fine"));
  }
}
