package dev.tidemill.internal.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SubjectsTest {

    @Test
    void keysAreTheSubjectItsPrefixWildcardsLongestFirstAndTheCatchAll() {
        assertThat(Subjects.keys("room.42.message")).containsExactly("room.42.message", "room.42.*", "room.*", "*");
        assertThat(Subjects.keys("chat")).containsExactly("chat", "*");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".a", "a.", "a..b", "a.*", "*", "a*b", "a.\nb", "a\u0000"})
    void malformedSubjectsAreRefused(String subject) {
        assertThatThrownBy(() -> Subjects.checkSubject(subject)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subject '");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".*", "a..*", "*.a", "a.*.b", "a*", "**", "a.**"})
    void malformedPatternsAreRefused(String pattern) {
        assertThatThrownBy(() -> Subjects.merge(pattern)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pattern '");
    }

    @Test
    void thereMustBeAPattern() {
        assertThatThrownBy(Subjects::merge).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    }

    @Test
    void coveredPatternsAreDroppedSoAtMostOneMatchesAnySubject() {
        assertThat(Subjects.merge("room.42", "room.*", "room.42.*", "lobby")).containsExactly("room.*", "lobby");
        assertThat(Subjects.merge("a.b", "*", "c")).containsExactly("*");
        assertThat(Subjects.merge("a", "a.*")).as("a.* does not match a").containsExactly("a", "a.*");
        assertThat(Subjects.merge("ab.c", "a.*")).as("ab is not under a").containsExactly("ab.c", "a.*");
        assertThat(Subjects.merge("x", "x", "x")).containsExactly("x");
    }
}
