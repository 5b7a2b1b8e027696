package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.core.goalstate.ContainerdSpec;
import dev.noneops.core.node.internal.render.ContainerdConfigRenderer;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real containerd (Debian 12's package, taken with {@code apt-get download}, never installed)
 * parses the rendered {@code config.toml}, Jackson's dotted-key TOML included, and takes its
 * settings: {@code containerd config dump} shows them. Skipped where the package cannot be had.
 */
class RenderedContainerdConfigSystemTest {

  @Test
  void containerdTakesEverySettingOfTheRenderedConfig(@TempDir Path dir) throws Exception {
    Path containerd = containerdBinary();
    ContainerdSpec spec = new ContainerdSpec(
        "registry.example/pause:9.9",
        "/opt/unbounded/node/current/bin/containerd",
        "/opt/unbounded/node/current/bin/runc",
        "/opt/cni/bin",
        "/etc/cni/net.d",
        "127.0.0.1:10257",
        false);
    Path config = dir.resolve("config.toml");
    Files.write(config, ContainerdConfigRenderer.config(spec));

    String dump = run(containerd.toString(), "--config", config.toString(), "config", "dump");

    assertThat(dump)
        .contains("version = 2")
        .contains("sandbox_image = \"registry.example/pause:9.9\"")
        .contains("default_runtime_name = \"runc\"")
        .contains("BinaryName = \"/opt/unbounded/node/current/bin/runc\"")
        .contains("NoNewKeyring = true")
        .contains("SystemdCgroup = true")
        .contains("bin_dir = \"/opt/cni/bin\"")
        .contains("conf_dir = \"/etc/cni/net.d\"")
        .contains("config_path = \"/etc/containerd/certs.d\"")
        .contains("X-Meta-Source-Client = [\"unbounded-kube/kubelet\"]")
        .contains("address = \"127.0.0.1:10257\"");
  }

  @Test
  void theNvidiaDropInMakesNvidiaTheDefaultRuntime(@TempDir Path dir) throws Exception {
    Path containerd = containerdBinary();
    Path dropIn = dir.resolve("99-nvidia-runtime.toml");
    Files.write(dropIn, ContainerdConfigRenderer.nvidiaDropIn());
    Path config = dir.resolve("config.toml");
    Files.writeString(config, "version = 2\nimports = [\"" + dropIn + "\"]\n");

    String dump = run(containerd.toString(), "--config", config.toString(), "config", "dump");

    assertThat(dump)
        .contains("default_runtime_name = \"nvidia\"")
        .contains("BinaryName = \"/usr/bin/nvidia-container-runtime\"");
  }

  private static Path containerdBinary() throws IOException, InterruptedException {
    assumeTrue(
        DebianPackages.toolsAvailable(),
        "apt-get and dpkg-deb are needed to take containerd from Debian");
    try {
      Path binary =
          DebianPackages.inUserCache().extracted("containerd", "").resolve("usr/bin/containerd");
      assumeTrue(Files.isExecutable(binary), "no containerd binary in the package");
      return binary;
    } catch (DebianPackages.PackageUnavailableException e) {
      assumeTrue(false, "containerd package unavailable: " + e.getMessage());
      throw e;
    }
  }

  private static String run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = new String(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(text).isZero();
    return text;
  }
}
