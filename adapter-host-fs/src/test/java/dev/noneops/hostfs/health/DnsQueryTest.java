package dev.noneops.hostfs.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DnsQueryTest {

  @Test
  void buildsAnAQuestionWithRecursionDesired() {
    byte[] q = DnsQuery.build(0xBEEF, "kube-dns.local.");

    assertThat(q)
        .containsExactly(
            0xBE - 256,
            0xEF - 256,
            0x01,
            0x00,
            0,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            8,
            'k',
            'u',
            'b',
            'e',
            '-',
            'd',
            'n',
            's',
            5,
            'l',
            'o',
            'c',
            'a',
            'l',
            0,
            0,
            1,
            0,
            1);
  }

  @Test
  void queriesTheRootForAnEmptyName() {
    assertThat(DnsQuery.build(1, ".")).hasSize(12 + 1 + 4);
  }

  @Test
  void rejectsNamesDnsCannotCarry() {
    assertThatThrownBy(() -> DnsQuery.build(1, "a..b")).hasMessageContaining("a..b");
    assertThatThrownBy(() -> DnsQuery.build(1, "x".repeat(64) + ".com"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DnsQuery.build(1, ("abcdefgh.").repeat(30)))
        .hasMessageContaining("255");
  }

  @Test
  void recognisesOnlyAResponseWithTheSameId() {
    byte[] response = DnsQuery.build(0x1234, "a");
    response[2] |= (byte) 0x80;

    assertThat(DnsQuery.isResponseTo(0x1234, response, response.length)).isTrue();
    assertThat(DnsQuery.isResponseTo(0x1235, response, response.length)).isFalse();
    assertThat(DnsQuery.isResponseTo(0x1234, DnsQuery.build(0x1234, "a"), 19))
        .as("a query is no response")
        .isFalse();
    assertThat(DnsQuery.isResponseTo(0x1234, response, 11))
        .as("truncated header")
        .isFalse();
  }
}
