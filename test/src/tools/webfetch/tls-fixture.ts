/**
 * A self-signed certificate for `secure.test` (P-256, valid until 2126), generated once with
 * `openssl req -x509 -newkey ec -subj /CN=secure.test -addext subjectAltName=DNS:secure.test`.
 * Test-only material: it protects nothing.
 */
export const SECURE_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUPiHQuwI4B9P5HSx+Z3KPWs5gdlQwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLc2VjdXJlLnRlc3QwIBcNMjYxMTMwMDkyMzI1WhgPMjEyNjEx
MDYwOTIzMjVaMBYxFDASBgNVBAMMC3NlY3VyZS50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEj2cIkjmuZnQjJQp+zxkj/FhhUTqyxacK4wXmyx4Sj/iPLbNr
G9Xny87nrv6o8c6sbllzEUYBM5Uq32WliEHTxKNrMGkwHQYDVR0OBBYEFL/XJKm/
tmO36O1EXhwZJ5M57TsoMB8GA1UdIwQYMBaAFL/XJKm/tmO36O1EXhwZJ5M57Tso
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILc2VjdXJlLnRlc3QwCgYIKoZI
zj0EAwIDSAAwRQIhAMBYor6imk9QMyLkPhH6bpuzBkHpv2T7O9LhTsuMyOmVAiAF
IMApcWlpM0nL0ktDVMNADUU4fhelotAl6TPNLzx50g==
-----END CERTIFICATE-----
`;

export const SECURE_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgaLJx80DgMMkkZ7ex
p1fr27RNYXzP24zQzCXrpoj03HChRANCAASPZwiSOa5mdCMlCn7PGSP8WGFROrLF
pwrjBebLHhKP+I8ts2sb1efLzueu/qjxzqxuWXMRRgEzlSrfZaWIQdPE
-----END PRIVATE KEY-----
`;
