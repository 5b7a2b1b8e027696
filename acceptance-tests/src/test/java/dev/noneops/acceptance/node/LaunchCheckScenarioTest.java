package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.LaunchCheckReport;
import dev.noneops.core.node.Node;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The allocation launch check, which kubelet runs often, checks the active version as {@code
 * prepare} does: a file keeping its size, mode, inode and times is trusted without being read, so
 * the check costs one {@code lstat} per file rather than hashing the whole version; any file
 * written since the manifest was made is read and hashed, and {@code noneops verify} still hashes
 * every file.
 */
class LaunchCheckScenarioTest {
  private final SimNode lab = new SimNode();

  @Test
  void aContentChangeThatKeptEveryStampIsLeftToVerifyAndTheCheckReadsNoFile() throws IOException {
    MachineGoalState goal = lab.goal(SimNode.config());
    Node node = lab.bootstrap(goal);
    String v = goal.rootFs().versionName();
    Path runc = lab.layout.binDir(v).resolve("runc");
    byte[] content = lab.host.ports().files().read(runc);
    content[content.length - 2] ^= 1;
    lab.host.fs().corruptContent(runc, content);

    LaunchCheckReport check = node.inspect().launchCheck();

    assertThat(check.healthy()).as(check.problems().toString()).isTrue();
    assertThat(node.inspect().verify(List.of(v)).ok())
        .as("verify reads every file")
        .isFalse();
  }

  @Test
  void aFileRewrittenSinceTheManifestIsReadAndFailsTheCheck() throws IOException {
    MachineGoalState goal = lab.goal(SimNode.config());
    Node node = lab.bootstrap(goal);
    String v = goal.rootFs().versionName();
    Path runc = lab.layout.binDir(v).resolve("runc");
    lab.host
        .ports()
        .files()
        .writeDurably(
            runc, "#!/bin/sh\necho another runc\n".getBytes(StandardCharsets.UTF_8), 0755);

    LaunchCheckReport check = node.inspect().launchCheck();

    assertThat(check.healthy()).isFalse();
    assertThat(String.join("\n", check.problems()))
        .contains("active version " + v + " is not verified")
        .contains("bin/runc");
  }
}
