module.exports = async function globalTeardown() {};
