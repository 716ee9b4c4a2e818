import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/domain/errors.js';
import { checkFields, fieldsBody, stringField, typedField, withFieldsQuery } from '../../../src/ordering/api-fields.js';

describe('energy api fields', () => {
  it('-F copies JSON numbers as typed and knows true, false and null; everything else is a string', () => {
    const fields = ['a=65000', 'b=-0.10', 'c=1E+30', 'd=true', 'e=null', 'f=007', 'g=0x10', 'h=', 'i=1.', 'j=a=b'].map(
      typedField,
    );
    expect(fieldsBody(fields)).toBe(
      '{"a":65000,"b":-0.10,"c":1E+30,"d":true,"e":null,"f":"007","g":"0x10","h":"","i":"1.","j":"a=b"}',
    );
  });

  it('-f is always a string', () => {
    expect(fieldsBody(['n=65000', 't=true', 'q="x"'].map(stringField))).toBe('{"n":"65000","t":"true","q":"\\"x\\""}');
  });

  it('refuses a field without key=value, and a key given twice', () => {
    expect(() => stringField('novalue')).toThrow(UsageError);
    expect(() => typedField('=1')).toThrow(UsageError);
    expect(() => checkFields([stringField('a=1'), typedField('a=2')])).toThrow(UsageError);
  });

  it('appends fields to the query, RFC 3986-encoded', () => {
    expect(withFieldsQuery('', [stringField('a=x y')])).toBe('?a=x%20y');
    expect(withFieldsQuery('?limit=2', [typedField('b=1'), stringField("c=it's")])).toBe('?limit=2&b=1&c=it%27s');
    expect(withFieldsQuery('?limit=2', [])).toBe('?limit=2');
  });
});
