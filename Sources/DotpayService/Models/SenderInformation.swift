import PayRPCJSON
import PayRPCSchema

/// Who pays (`DPPaymentInfo.senderInformation`, Polish *informacje o kupującym*, "buyer
/// information"): every key optional; the SDK asks the buyer for what is missing. The keys are
/// the document's (`street_n1`, `phone_verified`).
public struct SenderInformation: JSONModel, Equatable {
    /// *imię*, first name.
    /// - MaxLength: 50
    public var firstname: String?
    /// *nazwisko*, last name. The document's example spells it `surname`, accepted too.
    /// - MaxLength: 50
    /// - Alias: surname
    public var lastname: String?
    /// The buyer's email.
    /// - MaxLength: 100
    /// - Format: email
    public var email: String?
    /// *telefon*, phone number (Masterpass uses it).
    /// - MaxLength: 20
    public var phone: String?
    /// Whether the app verified the phone (for example by an SMS code): `YES` or `NO`.
    /// - Key: phone_verified
    public var phoneVerified: YesOrNo?
    /// *ulica*, street.
    /// - MaxLength: 100
    public var street: String?
    /// *numer budynku*, building number.
    /// - Key: street_n1
    /// - MaxLength: 30
    public var streetN1: String?
    /// *numer mieszkania*, flat number.
    /// - Key: street_n2
    /// - MaxLength: 30
    public var streetN2: String?
    /// *kod pocztowy*, postal code.
    /// - MaxLength: 20
    public var postcode: String?
    /// *miasto*, city.
    /// - MaxLength: 50
    public var city: String?
    /// *kraj*, country: ISO 3166-1 alpha-3.
    public var country: CountryAlpha3Code?
}
