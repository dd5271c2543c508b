// The JUnit reader on reports as runners write them, and on reports it must refuse.
import { describe, expect, it } from 'vitest'
import { junitResults, ReportError } from './junitResults'
import { parseXml, XmlError } from './xmlElements'

const report = `<?xml version="1.0" encoding="utf-8"?>
<!-- written by pytest -->
<testsuites>
  <testsuite name="pytest" tests="4">
    <testcase classname="test_main.TestAverage" name="test_empty" time="0.001"/>
    <testcase classname="test_main.TestAverage" name="test_negative">
      <failure message="AssertionError: -1 != -2">Traceback &lt;here&gt; &amp; there &#x263A;</failure>
    </testcase>
    <testsuite name="inner">
      <testcase name="test_big"><error message="boom"><![CDATA[x < y & z]]></error></testcase>
      <testcase name='test_later'><skipped message="not yet"/></testcase>
    </testsuite>
  </testsuite>
</testsuites>
`

describe('JUnit reports', () => {
  it('reads every test, nested suites too, with its outcome, message and points', () => {
    expect(junitResults(report, { test_negative: 2, 'inner.x': 5, test_big: 3 })).toEqual([
      { name: 'test_empty', className: 'test_main.TestAverage', outcome: 'passed', earned: 1, points: 1 },
      {
        name: 'test_negative',
        className: 'test_main.TestAverage',
        outcome: 'failed',
        message: 'AssertionError: -1 != -2\nTraceback <here> & there ☺',
        earned: 0,
        points: 2,
      },
      { name: 'test_big', outcome: 'failed', message: 'boom\nx < y & z', earned: 0, points: 3 },
      { name: 'test_later', outcome: 'skipped', message: 'not yet', earned: 0, points: 1 },
    ])
  })

  it('finds points by classname.name as well', () => {
    const xml = '<testsuite><testcase classname="T" name="a"/></testsuite>'
    expect(junitResults(xml, { 'T.a': 4 })[0]).toMatchObject({ earned: 4, points: 4 })
  })

  it('refuses what is not a JUnit report, saying why', () => {
    expect(() => junitResults('<html></html>', {})).toThrow(/root is <html>/)
    expect(() => junitResults('<testsuite><testcase/></testsuite>', {})).toThrow(/without a name/)
    expect(() => junitResults('not xml at all', {})).toThrow(ReportError)
  })

  it('refuses XML that is not well formed, or that declares entities', () => {
    const bad = [
      ['<a><b></a>', /<\/a> closes <b>/],
      ['<a>', /<a> is never closed/],
      ['<a/><b/>', /second root/],
      ['<a x=1/>', /not quoted/],
      ['<a x="1" x="2"/>', /given twice/],
      ['<a>&bogus;</a>', /unknown entity/],
      ['<a>fish & chips</a>', /bare &/],
      ['<a><!-- never ends</a>', /comment never ends/],
      ['<!DOCTYPE a [<!ENTITY b "bomb">]><a>&b;</a>', /DOCTYPE/],
      ['', /no root element/],
      ['<a>\n\n</b>', /line 3/],
    ] as const
    for (const [xml, why] of bad) expect(() => parseXml(xml), xml).toThrow(why)
    expect(() => parseXml('<a>'.repeat(70) + '</a>'.repeat(70))).toThrow(XmlError)
    expect(() => parseXml('<a>'.repeat(70) + '</a>'.repeat(70))).toThrow(/deeper than 64/)
    expect(() => parseXml(`<a>${'<b/>'.repeat(11)}</a>`, { maxDepth: 5, maxElements: 10 })).toThrow(
      /more than 10 elements/,
    )
  })
})
