package dev.noneops.acceptance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.noneops.acceptance.architecture.leakfixture.LeakingApi;
import dev.noneops.core.node.Node;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The API of {@code ports} and {@code core} cannot leak: no public or protected member of an
 * exported package names a type a caller cannot name. The exported packages are read from the
 * modules' own declarations ({@code module-info.java}).
 */
class ApiLeaksTest {
  /** The packages {@code core}'s and {@code ports}' module declarations export. */
  private static final Set<String> EXPORTED = exportsOf(Node.class, HostPorts.class);

  /** The packages exported by the module declarations of the modules holding {@code types}. */
  static Set<String> exportsOf(Class<?>... types) {
    Set<String> exported = new TreeSet<>();
    for (Class<?> type : types) {
      exported.addAll(descriptorOf(type).exports().stream()
          .filter(e -> !e.isQualified())
          .map(ModuleDescriptor.Exports::source)
          .toList());
    }
    return exported;
  }

  static ModuleDescriptor descriptorOf(Class<?> type) {
    try {
      Path location =
          Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isDirectory(location)) {
        try (InputStream in = Files.newInputStream(location.resolve("module-info.class"))) {
          return ModuleDescriptor.read(in);
        }
      }
      try (JarFile jar = new JarFile(location.toFile());
          InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
        return ModuleDescriptor.read(in);
      }
    } catch (IOException | URISyntaxException e) {
      throw new AssertionError("read the module declaration beside " + type.getName(), e);
    }
  }

  private static boolean exported(String pkg) {
    return EXPORTED.contains(pkg);
  }

  @Test
  void coreExportsItsApiPackagesAndNoInternalOneAndPortsExportsEveryPackage() {
    assertThat(descriptorOf(Node.class).name()).isEqualTo("dev.noneops.core");
    assertThat(exportsOf(Node.class))
        .containsExactlyInAnyOrder(
            "dev.noneops.core",
            "dev.noneops.core.config",
            "dev.noneops.core.goalstate",
            "dev.noneops.core.layout",
            "dev.noneops.core.node")
        .noneMatch(pkg -> pkg.contains(".internal"));
    assertThat(exportsOf(HostPorts.class))
        .containsExactlyInAnyOrderElementsOf(descriptorOf(HostPorts.class).packages());
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
