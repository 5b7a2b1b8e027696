package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.internal.render.UnitFile;
import dev.noneops.core.node.internal.render.UnitFileWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnitFileWriterTest {

  @Test
  void rendersMarkerSectionsAndTypedValues() {
    UnitFile unit = UnitFile.builder()
        .section("Unit")
        .set("Description", "demo 100%")
        .section("Service")
        .exec(
            "ExecStartPre",
            UnitFile.Command.of("/sbin/ip", "link", "add", "d0", "type", "dummy")
                .ignoringFailure())
        .exec(
            "ExecStart",
            new UnitFile.Command(
                "",
                "/opt/my tools/run",
                List.of(new UnitFile.Literal("--name=a b"), new UnitFile.Variable("EXTRA"))))
        .env("GREETING", "hello \"world\"")
        .envArgs("ARGS", List.of("--x=1", "--y=2"))
        .build();

    assertThat(UnitFileWriter.renderString(unit)).isEqualTo("""
        # Managed by unbounded-agent (none)

        [Unit]
        Description=demo 100%%

        [Service]
        ExecStartPre=-/sbin/ip link add d0 type dummy
        ExecStart="/opt/my tools/run" "--name=a b" $EXTRA
        Environment="GREETING=hello \\"world\\""
        Environment="ARGS=--x=1 --y=2"
        """);
  }

  @Test
  void longCommandLinesPutOneArgumentPerContinuationLine() {
    List<UnitFile.Arg> args = List.of(
        new UnitFile.Literal("--" + "a".repeat(60)), new UnitFile.Literal("--" + "b".repeat(40)));
    String rendered = UnitFileWriter.renderString(UnitFile.builder()
        .section("Service")
        .exec("ExecStart", new UnitFile.Command("", "/bin/tool", args))
        .build());
    assertThat(rendered)
        .contains("ExecStart=/bin/tool \\\n    --" + "a".repeat(60) + " \\\n    --" + "b".repeat(40)
            + "\n");
  }

  @Test
  void anArgumentThatWouldSplitInAVariableExpansionIsRefused() {
    assertThatThrownBy(() -> UnitFileWriter.render(UnitFile.builder()
            .section("Service")
            .envArgs("KUBELET_NODE_CONFIG_ARGS", List.of("--node-labels=a=b c"))
            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("KUBELET_NODE_CONFIG_ARGS")
        .hasMessageContaining("a=b c");
  }

  @Test
  void anInjectedNewlineCannotAddASetting() {
    assertThatThrownBy(() -> UnitFileWriter.render(UnitFile.builder()
            .section("Unit")
            .set("Description", "x\nExecStartPre=/bin/evil")
            .build()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void onlyKnownCommandPrefixesAreAccepted() {
    assertThatThrownBy(() -> new UnitFile.Command("x", "/bin/true", List.of()))
        .hasMessageContaining("prefix");
  }

  @Test
  void aSettingNeedsASection() {
    assertThatThrownBy(() -> UnitFile.builder().set("A", "b"))
        .isInstanceOf(IllegalStateException.class);
  }
}
