package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent build's man pages are the section-1 pages the build packed into its jar; its JVM
 * starts processes by vfork only on the JDKs that support it without a warning.
 */
class RunningJarAgentTest {
  @TempDir
  Path dir;

  @Test
  void theManPagesAreTheJarsManOnePagesByFileName() throws IOException {
    Path jar = dir.resolve("noneops.jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      entry(out, "man/man1/noneops.1", ".TH NONEOPS 1");
      entry(out, "man/man1/noneops-status.1", ".TH NONEOPS-STATUS 1");
      entry(out, "man/man1/drafts/noneops-old.1", "not a page of the build");
      entry(out, "man/man1/README", "not a page");
      entry(out, "dev/noneops/cli/wiring/Main.class", "classes");
    }

    Map<String, byte[]> pages = RunningJarAgent.manPages(jar);

    assertThat(pages).containsOnlyKeys("noneops.1", "noneops-status.1");
    assertThat(new String(pages.get("noneops-status.1"), StandardCharsets.UTF_8))
        .isEqualTo(".TH NONEOPS-STATUS 1");
  }

  @Test
  void theAgentStartsProcessesByVforkOnJdk17To21AndByTheDefaultAfter() {
    assertThat(RunningJarAgent.jvmOptions(17)).contains(RunningJarAgent.VFORK);
    assertThat(RunningJarAgent.jvmOptions(21)).contains(RunningJarAgent.VFORK);
    assertThat(RunningJarAgent.jvmOptions(25))
        .doesNotContain(RunningJarAgent.VFORK)
        .contains("-XX:+UseSerialGC");
  }

  private static void entry(JarOutputStream out, String name, String content) throws IOException {
    out.putNextEntry(new JarEntry(name));
    out.write(content.getBytes(StandardCharsets.UTF_8));
    out.closeEntry();
  }
}
