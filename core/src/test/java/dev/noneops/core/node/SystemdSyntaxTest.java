package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.internal.render.SystemdSyntax;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemdSyntaxTest {

  @Test
  void plainArgumentsStayUnquoted() {
    assertThat(SystemdSyntax.execArg("--node-labels=a=b,c=d")).isEqualTo("--node-labels=a=b,c=d");
    assertThat(SystemdSyntax.execArg("/opt/unbounded/node/current/bin/kubelet"))
        .isEqualTo("/opt/unbounded/node/current/bin/kubelet");
  }

  @Test
  void argumentsWithSpacesQuotesOrBackslashesAreDoubleQuotedAndEscaped() {
    assertThat(SystemdSyntax.execArg("a b")).isEqualTo("\"a b\"");
    assertThat(SystemdSyntax.execArg("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
    assertThat(SystemdSyntax.execArg("C:\\dir")).isEqualTo("\"C:\\\\dir\"");
    assertThat(SystemdSyntax.execArg("it's")).isEqualTo("\"it's\"");
    assertThat(SystemdSyntax.execArg("")).isEqualTo("\"\"");
    assertThat(SystemdSyntax.execArg(";")).isEqualTo("\";\"");
  }

  @Test
  void specifiersAndVariablesAreMadeLiteral() {
    assertThat(SystemdSyntax.execArg("100%")).isEqualTo("100%%");
    assertThat(SystemdSyntax.execArg("$HOME")).isEqualTo("$$HOME");
    assertThat(SystemdSyntax.execArg("${X} %n")).isEqualTo("\"$${X} %%n\"");
    assertThat(SystemdSyntax.plainValue("50%")).isEqualTo("50%%");
    assertThat(SystemdSyntax.environment("A", "x%y$z")).isEqualTo("\"A=x%%y$z\"");
  }

  @Test
  void environmentValuesAreQuotedWithEscapes() {
    assertThat(SystemdSyntax.environment("ARGS", "--a=1 --b=\"2\" c\\d"))
        .isEqualTo("\"ARGS=--a=1 --b=\\\"2\\\" c\\\\d\"");
  }

  @Test
  void lineBreaksNulAndControlCharactersAreRejectedEverywhere() {
    for (String bad : List.of("a\nExecStart=/bin/evil", "a\rb", "a\0b", "a\tb")) {
      assertThatThrownBy(() -> SystemdSyntax.execArg(bad))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SystemdSyntax.plainValue(bad))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> SystemdSyntax.environment("A", bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> SystemdSyntax.execArg("a\nb")).hasMessageContaining("line break");
  }

  @Test
  void plainValuesMayNotContinueTheLineOrCarrySurroundingSpace() {
    assertThatThrownBy(() -> SystemdSyntax.plainValue("x\\")).hasMessageContaining("backslash");
    assertThatThrownBy(() -> SystemdSyntax.plainValue(" x")).hasMessageContaining("whitespace");
  }

  @Test
  void namesAreValidated() {
    assertThatThrownBy(() -> SystemdSyntax.envName("A=B")).hasMessageContaining("A=B");
    assertThatThrownBy(() -> SystemdSyntax.key("Exec Start")).hasMessageContaining("Exec Start");
    assertThatThrownBy(() -> SystemdSyntax.section("Service]\n[Unit"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SystemdSyntax.execProgram("kubelet")).hasMessageContaining("absolute");
  }
}
