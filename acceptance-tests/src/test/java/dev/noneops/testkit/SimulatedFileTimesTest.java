package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.testkit.fs.SimFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated inodes' change and modification times follow the kernel's rules. */
class SimulatedFileTimesTest {
  private final SimulatedHost host = SimulatedHost.create();
  private final SimFileSystem fs = host.fs();
  private final Path file = Path.of("/var/lib/times/f");

  private FileMeta meta(Path path) throws IOException {
    return fs.lstat(path).orElseThrow();
  }

  @Test
  void timesComeFromTheVirtualWallClock() throws IOException {
    host.clock().advance(Duration.ofHours(3));
    fs.seedFile(file, "x", 0644);
    long now = host.clock().now().getEpochSecond() * 1_000_000_000L
        + host.clock().now().getNano();
    assertThat(meta(file).mtimeNanos()).isGreaterThanOrEqualTo(now);
    assertThat(meta(file).ctimeNanos() - now).isLessThan(1_000_000);
  }

  @Test
  void aWriteInPlaceMovesBothTimesAndKeepsTheInode() throws IOException {
    fs.seedFile(file, "one", 0755);
    FileMeta before = meta(file);

    fs.writeVolatile(file, "two".getBytes(StandardCharsets.UTF_8), 0755);

    FileMeta after = meta(file);
    assertThat(after.inode()).isEqualTo(before.inode());
    assertThat(after.size()).isEqualTo(before.size());
    assertThat(after.mtimeNanos()).isGreaterThan(before.mtimeNanos());
    assertThat(after.ctimeNanos()).isGreaterThan(before.ctimeNanos());
  }

  @Test
  void addingAnEntryToADirectoryMovesTheDirectorysTimes() throws IOException {
    fs.seedDirectory(file.getParent(), 0755);
    FileMeta before = meta(file.getParent());

    fs.writeVolatile(file, new byte[1], 0644);

    assertThat(meta(file.getParent()).mtimeNanos()).isGreaterThan(before.mtimeNanos());
  }

  @Test
  void corruptionChangesTheContentAndNoMetadataButMustKeepTheSize() throws IOException {
    fs.seedFile(file, "abc", 0755);
    FileMeta before = meta(file);

    fs.corruptContent(file, "abd".getBytes(StandardCharsets.UTF_8));

    assertThat(meta(file)).isEqualTo(before);
    assertThat(fs.read(file)).asString(StandardCharsets.UTF_8).isEqualTo("abd");
    assertThatThrownBy(() -> fs.corruptContent(file, "longer".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keeps the size");
  }

  @Test
  void aCrashRevertsTheTimesWithTheContentToTheirDurableState() throws IOException {
    fs.seedFile(file, "durable", 0644);
    FileMeta durable = meta(file);
    fs.writeVolatile(file, "lost by the crash".getBytes(StandardCharsets.UTF_8), 0644);

    fs.crash();

    assertThat(meta(file)).isEqualTo(durable);
  }

  @Test
  void onACoarseClockTwoChangesShareATimeUntilTheClockIsFineAgain() throws IOException {
    fs.seedFile(file, "one", 0755);
    fs.coarseTimestamps(true);
    fs.writeVolatile(file, "two".getBytes(StandardCharsets.UTF_8), 0755);
    FileMeta first = meta(file);

    fs.writeVolatile(file, "six".getBytes(StandardCharsets.UTF_8), 0755);

    assertThat(meta(file).mtimeNanos()).isEqualTo(first.mtimeNanos());
    assertThat(meta(file).ctimeNanos()).isEqualTo(first.ctimeNanos());
    fs.coarseTimestamps(false);
    fs.writeVolatile(file, "ten".getBytes(StandardCharsets.UTF_8), 0755);
    assertThat(meta(file).mtimeNanos()).isGreaterThan(first.mtimeNanos());
  }
}
