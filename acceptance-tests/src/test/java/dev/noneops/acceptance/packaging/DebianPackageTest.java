package dev.noneops.acceptance.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Debian package and the tarball as the build makes them: lintian finds nothing, even
 * pedantic; the package holds the launcher, the jar, a man page per command, bash completion and
 * the docs, depends on a Java 17 runtime, and starts nothing on install (no unit, no service
 * start in its scripts); the tarball holds the same tree.
 */
class DebianPackageTest {
  private static Path deb;

  @BeforeAll
  static void findThePackage() throws IOException {
    assumeThat(Packages.deb()).as("a .deb (built where dpkg-deb exists)").isPresent();
    deb = Packages.deb().orElseThrow();
  }

  @Test
  void lintianFindsNothingEvenPedantic() throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    if (!Packages.onPath("lintian")) {
      assertThat(root)
          .as("lintian is missing: install it (apt-get install lintian), as .ci/run does")
          .isFalse();
      assumeThat(false).as("lintian on PATH").isTrue();
    }
    Packages.Output lintian = Packages.run(
        "lintian", "--pedantic", "--fail-on", "error,warning,info,pedantic", deb.toString());

    assertThat(lintian.text().lines().filter(line -> line.matches("^[EWIPX]: .*")))
        .as(lintian.text())
        .isEmpty();
    assertThat(lintian.exitCode()).as(lintian.text()).isZero();
  }

  @Test
  void thePackageHoldsTheCommandItsPagesCompletionAndDocsAndStartsNothing() throws Exception {
    List<String> files = Packages.run("dpkg-deb", "--contents", deb.toString())
        .text()
        .lines()
        .map(line -> line.substring(line.indexOf("./") + 1))
        .toList();

    assertThat(files)
        .contains(
            "/usr/bin/noneops",
            "/usr/share/noneops/noneops.jar",
            "/usr/share/man/man1/noneops.1.gz",
            "/usr/share/man/man1/noneops-bootstrap.1.gz",
            "/usr/share/man/man1/noneops-reset.1.gz",
            "/usr/share/bash-completion/completions/noneops",
            "/usr/lib/systemd/catalog/noneops.catalog",
            "/usr/share/doc/noneops/copyright",
            "/usr/share/doc/noneops/changelog.gz",
            "/usr/share/doc/noneops/README.md",
            "/usr/share/doc/noneops/docs/guides/install.md");
    assertThat(files)
        .as("units are written by 'noneops bootstrap', never by the package")
        .noneMatch(f -> f.contains("/systemd/system") || f.endsWith(".service"));

    String control = Packages.run("dpkg-deb", "--field", deb.toString()).text();
    assertThat(control)
        .contains("Package: noneops", "Architecture: all")
        .contains("Depends: openjdk-17-jre-headless | java17-runtime-headless");

    Path scripts = Files.createTempDirectory("noneops-deb-control");
    Packages.run("dpkg-deb", "--control", deb.toString(), scripts.toString());
    for (String script : List.of("postinst", "prerm")) {
      assertThat(Files.readString(scripts.resolve(script)))
          .as(script + " starts, enables or restarts no unit itself")
          .doesNotContain("systemctl", "deb-systemd-invoke", "invoke-rc.d");
    }
  }

  @Test
  void theTarballHoldsTheSameTreeUnderOneDirectory() throws Exception {
    Path tarball = Packages.tarball().orElseThrow();
    List<String> entries =
        Packages.run("tar", "-tzf", tarball.toString()).text().lines().toList();
    String base = tarball.getFileName().toString().replace(".tar.gz", "");

    assertThat(entries).allMatch(e -> e.startsWith(base + "/"));
    assertThat(entries)
        .contains(
            base + "/bin/noneops",
            base + "/share/noneops/noneops.jar",
            base + "/share/man/man1/noneops.1.gz",
            base + "/share/bash-completion/completions/noneops");

    Path unpacked = Files.createTempDirectory("noneops-tarball");
    Packages.run("tar", "-xzf", tarball.toString(), "-C", unpacked.toString());
    Packages.Output version =
        Packages.run(unpacked.resolve(base).resolve("bin/noneops").toString(), "version");
    assertThat(version.exitCode()).as(version.text()).isZero();
    assertThat(version.text()).startsWith("noneops ");
  }
}
